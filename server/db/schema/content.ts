import type { Generated } from 'kysely'
import type { Localized } from './locales.ts'

// Content of the public site (issue 4). Texts are per language; flags 0/1; timestamps ISO strings.
export type FaqEntryTable = {
  id: Generated<number>
  slug: string
  audience: string
  sort_order: number
} & Localized<'question'> &
  Localized<'answer'>
export type BlogPostTable = {
  id: Generated<number>
  slug: string
  author: string
  tags: string
  image_url: string | null
  published: number
  published_at: string
  created_at: string
} & Localized<'title'> &
  Localized<'summary'> &
  Localized<'body'>
export type HomeBoxTable = {
  id: Generated<number>
  slug: string
  icon: string
  sort_order: number
} & Localized<'title'> &
  Localized<'body'>
export type ServiceHighlightTable = {
  id: Generated<number>
  slug: string
  area_slug: string
  sort_order: number
} & Localized<'title'> &
  Localized<'body'>
export type PartnerLogoTable = {
  id: Generated<number>
  name: string
  image_url: string
  link_url: string | null
  sort_order: number
}
/** Seeded content rows an admin has changed or deleted (by kind and slug): the seed leaves them alone (decision 240). */
export type ContentAdminOwnedTable = { kind: string; key: string; at: string }
export type ContentPageTable = { slug: string; updated_at: string } & Localized<'title'> & Localized<'body'>
export type NewsletterSubscriberTable = {
  id: Generated<number>
  email: string
  token: string
  language: string
  subscribed_at: string
  unsubscribed_at: string | null
}
export type NewsletterConfirmationTable = {
  id: Generated<number>
  email: string
  language: string
  token_hash: string
  created_at: string
  expires_at: string
  used_at: string | null
}
export type ContactMessageTable = {
  id: Generated<number>
  name: string
  email: string
  subject: string
  message: string
  language: string
  user_id: number | null
  ip: string | null
  created_at: string
}

export interface ContentTables {
  faq_entry: FaqEntryTable
  blog_post: BlogPostTable
  home_box: HomeBoxTable
  service_highlight: ServiceHighlightTable
  partner_logo: PartnerLogoTable
  content_page: ContentPageTable
  content_admin_owned: ContentAdminOwnedTable
  newsletter_subscriber: NewsletterSubscriberTable
  newsletter_confirmation: NewsletterConfirmationTable
  contact_message: ContactMessageTable
}
