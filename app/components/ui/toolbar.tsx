import type React from 'react'

/** A row above a list: its filters on one side, its actions on the other. */
export function Toolbar({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="ui-toolbar" role="group" aria-label={label}>
      {children}
    </div>
  )
}
