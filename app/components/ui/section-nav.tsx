/** One entry of a page's section list: where it goes, its name, and an optional word after it (never colour alone). */
export interface SectionLink {
  href: string
  label: string
  note?: string
}

/**
 * A long page's table of contents: plain anchor links to its sections, so the page is short to
 * scan and works without JavaScript. Beside the content on wide screens, above it on narrow ones.
 */
export function SectionNav({ label, items }: { label: string; items: SectionLink[] }) {
  return (
    <nav className="ui-section-nav" aria-label={label}>
      <ul>
        {items.map((item) => (
          <li key={item.href}>
            <a href={item.href}>
              <span>{item.label}</span>
              {item.note ? <span className="ui-section-nav-note"> {item.note}</span> : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
