import { useEffect, useState } from 'react'
import { useLocation } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { CloseIcon } from '../ui/icons'

export interface ShellNotice {
  kind: 'success' | 'error' | 'info'
  title?: string
  message: string
  /** The same id on two reads of one flash (decision 229). */
  id?: string
}

// Notices rendered by the server (a flash cookie read by the layout's loader), so they show with
// JavaScript off; with it they can be closed. Errors are alerts, the rest polite status messages.
// A notice stays until the next navigation: a revalidation of the same page (a hub push) whose
// data no longer carries it does not take it off the screen (decision 229).
export function Notices({ notice }: { notice: ShellNotice | null }) {
  const { t } = useTranslation('shell')
  const { key } = useLocation()
  const [kept, setKept] = useState<{ key: string; notice: ShellNotice } | null>(null)
  const [closed, setClosed] = useState<string | null>(null)
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  useEffect(() => {
    if (notice) setKept({ key, notice })
  }, [key, notice])
  const shown = notice ?? (kept?.key === key ? kept.notice : null)
  const visible = shown && closed !== idOf(shown) ? shown : null
  return (
    <div className="notices" role="region" aria-label={t('notices.label')}>
      <div
        role={visible?.kind === 'error' ? 'alert' : 'status'}
        aria-live={visible?.kind === 'error' ? 'assertive' : 'polite'}
      >
        {visible ? (
          <div className={`toast toast-${visible.kind}`} data-notice={visible.kind}>
            <div>
              {visible.title ? <p className="toast-title">{visible.title}</p> : null}
              <p className="toast-message pre-line">{visible.message}</p>
            </div>
            {hydrated ? (
              <button
                type="button"
                className="icon-button toast-close"
                aria-label={t('notices.close')}
                onClick={() => setClosed(idOf(visible))}
              >
                <CloseIcon />
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  )
}

const idOf = (notice: ShellNotice) => notice.id ?? `${notice.kind}:${notice.message}`
