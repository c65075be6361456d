import type { Kysely, Transaction } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import type { Logger } from '#server/log.ts'
import { ApiError } from '#server/api/errors.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { EMAIL_TOPIC } from '#server/jobs/mailer.ts'
import type { RateLimiter, RateLimitRule } from '#server/lib/rate-limit.ts'
import { renderMail, type MailKind } from './mails.ts'
import type { Oidc } from './oidc.ts'
import type { Limits } from './rules.ts'

// What every identity use case is given, and the few helpers they all use: the rate limits,
// mails in the outbox, and the 400 and 429 answers.

export type Trx = Kysely<Database> | Transaction<Database>

export interface IdentityContext {
  db: Kysely<Database>
  log: Logger
  rateLimiter: RateLimiter
  oidc: Oidc
  limits: Limits
  /** The site's address (PUBLIC_URL), the only base of links in mails: never the request's Host. */
  publicUrl: string
  /** The secret that signs login tokens; read through `executor` inside a transaction (signing-secret.ts). */
  signingSecret: (executor?: Trx) => Promise<string>
  /** The profile's own completeness in percent (profiles module), or null before a profile is started. */
  profileCompleteness?: (executor: Trx, userId: number) => Promise<number | null>
  /** Called in the transaction that changes an account's first or last name (profiles: Find Freelancers searches names). */
  nameChanged?: (executor: Trx, userId: number) => Promise<void>
  /** What keeps a person from closing their account now (an active contract, money held or owed), or null. */
  closingBlocker?: (executor: Trx, userId: number) => Promise<ClosingBlocker | null>
}

export type ClosingBlocker = 'active_contract' | 'money_held' | 'money_owed'

/** Who is calling, as the routes pass it: the client's address, its language and browser. */
export interface CallInfo {
  ip: string
  locale: Locale
  userAgent?: string
}

export const nowIso = () => new Date().toISOString()
export const later = (ms: number) => new Date(Date.now() + ms).toISOString()

export const fieldError = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })

export const invalidToken = () =>
  new ApiError(400, 'Invalid', 'Invalid or expired token', { token: ['is invalid or expired'] })

export function tooManyRequests(retryAfter: number) {
  const error = new ApiError(
    429,
    'Too Many Requests',
    `Too many attempts. Try again in ${retryAfter} seconds.`,
  )
  error.headers = { 'retry-after': String(retryAfter) }
  return error
}

/** Counts an attempt against `key` (case aside); over the limit it answers 429. */
export async function limit({ rateLimiter }: IdentityContext, rule: RateLimitRule, key: string) {
  const decision = await rateLimiter.hit(rule, key.toLowerCase())
  if (!decision.ok) throw tooManyRequests(decision.retryAfter)
}

export const siteUrl = ({ publicUrl }: IdentityContext, pathAndQuery: string) =>
  new URL(pathAndQuery, publicUrl).href

/** Puts a mail in the outbox in the caller's transaction, so it leaves only if the change commits. */
export async function mail(
  trx: Trx,
  kind: MailKind,
  user: { email: string; first_name: string; language: string },
  link?: string,
  to?: string,
) {
  await enqueue(
    trx,
    EMAIL_TOPIC,
    renderMail(kind, { to: to ?? user.email, language: user.language, name: user.first_name, link }),
  )
}

/** The signed-in caller's own account: what a check of their current password and a mail to them need. */
export const callerAccount = (db: Trx, userId: number) =>
  db
    .selectFrom('app_user')
    .select(['id', 'email', 'password_hash', 'first_name', 'language'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
