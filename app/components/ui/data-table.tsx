import type React from 'react'

export interface DataColumn {
  label: React.ReactNode
  /** Numbers (amounts, balances) are right-aligned and keep their digits lined up. */
  numeric?: boolean
}
export interface DataRow {
  key: string | number
  cells: React.ReactNode[]
  testId?: string
}

/**
 * Rows of figures under column headings (a statement, a list of invoices). A real table, so a
 * screen reader announces each cell with its heading; the caption names it. On a narrow screen it
 * scrolls sideways inside its own region, which takes the keyboard focus so it can be scrolled
 * without a mouse.
 */
export function DataTable({
  caption,
  columns,
  rows,
  captionHidden = false,
}: {
  caption: string
  columns: DataColumn[]
  rows: DataRow[]
  captionHidden?: boolean
}) {
  return (
    <div className="ui-table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table className="ui-table">
        <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c, n) => (
              <th key={n} scope="col" className={c.numeric ? 'ui-num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-testid={r.testId}>
              {r.cells.map((cell, n) => (
                <td key={n} className={columns[n]?.numeric ? 'ui-num' : undefined}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
