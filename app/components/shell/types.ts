// What the shell needs to know about the signed-in user (identity's current user carries more).
export interface ShellUser {
  id: number
  name: string
  imageUrl: string | null
  roles: number[]
}

export interface ShellCategory {
  id: number
  name: string
  attachmentUrl: string
}

/** docs/product.md §2: the search types of the top bar's selector. */
export const searchTypes = ['workneerer', 'projects'] as const
export type SearchType = (typeof searchTypes)[number]

/** The public pages about Workneer, linked from the footer and the mobile side menu (keys of the shell namespace). */
export const companyPages = [
  { to: '/about-us', label: 'nav.about' },
  { to: '/why-workneer', label: 'nav.why' },
  { to: '/blogs', label: 'nav.blog' },
  { to: '/faq', label: 'nav.faq' },
  { to: '/contact-us', label: 'nav.contact' },
] as const
