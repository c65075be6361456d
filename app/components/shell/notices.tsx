import { useEffect, useState } from 'react'
import { useTranslation } from '~/lib/use-translation'
import { CloseIcon } from '../ui/icons'

export interface ShellNotice {
  kind: 'success' | 'error' | 'info'
  title?: string
  message: string
}

// Notices rendered by the server (a flash cookie read by the layout's loader), so they show with
// JavaScript off; with it they can be closed. Errors are alerts, the rest polite status messages.
export function Notices({ notice }: { notice: ShellNotice | null }) {
  const { t } = useTranslation('shell')
  const [closed, setClosed] = useState<ShellNotice | null>(null)
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const visible = notice && closed !== notice ? notice : null
  return (
    <div className="notices" role="region" aria-label={t('notices.label')}>
      <div role={visible?.kind === 'error' ? 'alert' : 'status'} aria-live={visible?.kind === 'error' ? 'assertive' : 'polite'}>
        {visible ? (
          <div className={`toast toast-${visible.kind}`} data-notice={visible.kind}>
            <div>
              {visible.title ? <p className="toast-title">{visible.title}</p> : null}
              <p className="toast-message pre-line">{visible.message}</p>
            </div>
            {hydrated ? (
              <button type="button" className="icon-button toast-close" aria-label={t('notices.close')} onClick={() => setClosed(visible)}>
                <CloseIcon />
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  )
}
