import type React from 'react'

/** Facts about a thing (rate, duration, budget…), label over value. Empty values are left out. */
export function DefinitionList({
  items,
}: {
  items: Array<[label: React.ReactNode, value: React.ReactNode]>
}) {
  const shown = items.filter(([, v]) => v !== null && v !== undefined && v !== '')
  if (!shown.length) return null
  return (
    <dl className="ui-dl">
      {shown.map(([label, value], n) => (
        <div key={n}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}
