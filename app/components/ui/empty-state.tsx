import type React from 'react'

/** What an empty list says, and the one thing to do about it. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: React.ReactNode
  children?: React.ReactNode
  action?: React.ReactNode
}) {
  return (
    <div className="ui-empty" data-testid="empty-state">
      <p className="ui-empty-title">{title}</p>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  )
}
