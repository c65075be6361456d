import type React from 'react'

export type NoticeKind = 'info' | 'success' | 'warning' | 'error'

/**
 * A message about the page: success after an action, an error that stopped one. Errors are
 * alerts; a success is a status, read when it appears without interrupting.
 */
export function Notice({
  kind = 'info',
  title,
  children,
  ...rest
}: {
  kind?: NoticeKind
  title?: React.ReactNode
  children?: React.ReactNode
  'data-testid'?: string
}) {
  return (
    <div className={`ui-notice ui-notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'} {...rest}>
      {title ? <strong className="ui-notice-title">{title}</strong> : null}
      {children ? <p>{children}</p> : null}
    </div>
  )
}
