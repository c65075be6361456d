import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'
import type { RateLimiter } from '#server/lib/rate-limit.ts'
import { contact, type ContactInput, type ContactTicket } from './contact.ts'
import { blog, blogs, faq, homeBoxes, logos, page, services } from './site.ts'
import { confirmSubscription, subscribe, unsubscribe } from './subscriptions.ts'

// The public site's content, the newsletter and the contact form, bound to their dependencies.
// Every read goes to the database, so an edit in the admin area (admin.ts) shows at once.
export interface ContentOptions {
  db: DB
  rateLimiter?: RateLimiter
  /** The site's address (PUBLIC_URL), the base of links in mails: never the request's Host. */
  publicUrl: string
  /** Where contact-form messages go. */
  supportInbox?: string
  contactTicket?: ContactTicket
}

export function createContentService(options: ContentOptions) {
  const { db, rateLimiter } = options
  const subscriptions = { db, rateLimiter, publicUrl: options.publicUrl.replace(/\/$/, '') }
  const contactDeps = {
    db,
    rateLimiter,
    supportInbox: options.supportInbox ?? 'support@workneer.local',
    contactTicket: options.contactTicket,
  }
  return {
    faq: (locale: Locale) => faq(db, locale),
    blogs: (locale: Locale, pageNumber: number, pageSize: number) => blogs(db, locale, pageNumber, pageSize),
    blog: (locale: Locale, id: number) => blog(db, locale, id),
    homeBoxes: (locale: Locale) => homeBoxes(db, locale),
    services: (locale: Locale) => services(db, locale),
    logos: () => logos(db),
    page: (locale: Locale, slug: string) => page(db, locale, slug),
    subscribe: (address: string, locale: Locale, ip: string) => subscribe(subscriptions, address, locale, ip),
    confirmSubscription: (token: string, ip: string) => confirmSubscription(subscriptions, token, ip),
    unsubscribe: (token: string) => unsubscribe(db, token),
    contact: (input: ContactInput, meta: { locale: Locale; ip: string; userId: number | null }) =>
      contact(contactDeps, input, meta),
  }
}

export type ContentService = ReturnType<typeof createContentService>
