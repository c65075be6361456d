import type { MetaDescriptor } from 'react-router'

/** A page's <title>: its own name, then the product's; the product's alone while there is none (an error page). */
export function titled(title: string | null | undefined, ...more: MetaDescriptor[]): MetaDescriptor[] {
  return [{ title: title ? `${title} – Workneer` : 'Workneer' }, ...more]
}
