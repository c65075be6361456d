import { NavLink } from 'react-router'

export interface TabLink {
  to: string
  label: string
  /** Only this exact path marks the tab current (an area's index), not the paths under it. */
  end?: boolean
}

/**
 * An area's sections as a row of tabs (the admin area): plain links that wrap on narrow screens,
 * the current one marked with aria-current and a bar under it (never colour alone).
 */
export function TabNav({ label, items }: { label: string; items: TabLink[] }) {
  return (
    <nav className="ui-tab-nav" aria-label={label}>
      <ul>
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={item.end} prefetch="none">
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
