import { AsyncLocalStorage } from 'node:async_hooks'
import type { Locale } from '#server/db/schema.ts'
import { plainText } from '../notifications/texts.ts'

// The one place a person's shown name is made (decision 271). Every service that shows someone
// (contracts, chats, reviews, proposals, invoices, complaints, admin screens) calls displayName.
//
// Only the name of a deleted account, and support's name, depend on who reads: they are words, so
// they are said in the reader's language. A person is shown by a dozen services, most of which
// never needed the reader's language, so the API handler runs each call as its reader (asReader in
// server/api/handler.ts) rather than every signature carrying the language. Work outside a call
// (an outbox mail) names its reader's language explicitly.
const reader = new AsyncLocalStorage<Locale>()

/** Runs `work` for a reader of `locale`: the names it shows are in that language. */
export const asReader = <T>(locale: Locale, work: () => T): T => reader.run(locale, work)
const readerLocale = (): Locale => reader.getStore() ?? 'en'

/** The columns of app_user a shown name is made of (nullable: a left join may find nobody). */
export interface NamedUser {
  first_name: string | null
  last_name: string | null
  company_name: string | null
  status: string | null
}

/** The name an account gives itself: its company's name when it has one, else first and last name. */
export function ownName(u: Omit<NamedUser, 'status'>): string {
  return u.company_name?.trim() || `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim()
}

/** The name others see: the account's own, or "Deleted user" in the reader's language once erased (decision 236). */
export function displayName(u: NamedUser, locale: Locale = readerLocale()): string {
  return u.status === 'Deleted' ? deletedName(locale) : ownName(u)
}

/** The person behind an account, for the screens that show a company's name beside them (its contact, the admin's user pages). */
export const personName = (
  u: Omit<NamedUser, 'company_name'> & { company_name?: string | null },
  locale?: Locale,
) => displayName({ ...u, company_name: null }, locale)

/** What stands where a deleted account's name was. */
export const deletedName = (locale: Locale = readerLocale()) => plainText(locale, 'common:person.deleted')

/** The name support answers under, to anyone but support itself (decision 212). */
export const supportName = (locale: Locale = readerLocale()) => plainText(locale, 'complaints:ticket.support')
