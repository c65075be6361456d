import { useEffect, useState } from 'react'
import { useNavigation } from 'react-router'
import { useTranslation } from '~/lib/use-translation'
import { CloseIcon } from '../ui/icons'

export interface ShellNotice {
  kind: 'success' | 'error' | 'info'
  title?: string
  message: string
}

// Notices rendered by the server (a flash cookie read by the layout's loader), so they show with
// JavaScript off; with it they can be closed. Errors are alerts, the rest polite status messages.
// A notice stays until the next navigation or submission: a reload of the shell's data in between
// (a live unread count, often about the very thing the notice reports) no longer has it, as its
// cookie was read, but must not take it away.
export function Notices({ notice }: { notice: ShellNotice | null }) {
  const { t } = useTranslation('shell')
  const busy = useNavigation().state !== 'idle'
  const [held, setHeld] = useState(notice)
  if (busy) {
    if (held) setHeld(null)
  } else if (notice && notice !== held) setHeld(notice)
  const [closed, setClosed] = useState<ShellNotice | null>(null)
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const shown = notice ?? held
  const visible = shown && closed !== shown ? shown : null
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
