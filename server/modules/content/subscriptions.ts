import { randomBytes } from 'node:crypto'
import type { Transaction } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Database, Locale } from '#server/db/schema.ts'
import { ApiError, notFound } from '#server/api/errors.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { EMAIL_TOPIC } from '#server/jobs/mailer.ts'
import type { RateLimiter } from '#server/lib/rate-limit.ts'
import { sha256 } from '../identity/tokens.ts'
import { CONFIRMED_REPLY, SUBSCRIBED_REPLY, UNSUBSCRIBED_REPLY, newsletterAddress } from './newsletter.ts'
import { asLocale, newsletterMail } from './mails.ts'
import { contentRateRules as rules, throttle } from './rate-limits.ts'

// Newsletter subscriptions, double opt-in (decision 092): asking only mails the owner, who starts
// the subscription from the link. The answer is the same for a new, pending, subscribed or
// unsubscribed address, and past the address's daily mail limit, so it tells nothing about the address.

/** How long a newsletter confirmation link works (decision 092). */
export const NEWSLETTER_CONFIRM_MS = 48 * 3600_000

export interface SubscriptionDeps {
  db: DB
  rateLimiter?: RateLimiter
  /** The site's address without a trailing slash, the base of the mailed links. */
  publicUrl: string
}

const now = () => new Date().toISOString()
const unsubscribeLink = (publicUrl: string, token: string) => `${publicUrl}/newsletter/unsubscribe/${token}`

export async function subscribe(deps: SubscriptionDeps, address: string, locale: Locale, ip: string) {
  const email = address.trim().toLowerCase()
  if (!newsletterAddress.test(email))
    throw new ApiError(400, 'Invalid Info', 'address: must be an email address', {
      address: ['must be an email address'],
    })
  await throttle(deps.rateLimiter, rules.subscribe, ip)
  const mails = deps.rateLimiter ? await deps.rateLimiter.hit(rules.subscribeMails, email) : { ok: true }
  if (!mails.ok) return SUBSCRIBED_REPLY
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('newsletter_confirmation')
      .where('expires_at', '<', now())
      .where('used_at', 'is', null)
      .execute()
    const existing = await trx
      .selectFrom('newsletter_subscriber')
      .select(['token', 'unsubscribed_at'])
      .where('email', '=', email)
      .executeTakeFirst()
    // Already subscribed: a harmless reminder (with the way out), never a second subscription.
    if (existing && !existing.unsubscribed_at)
      return enqueue(
        trx,
        EMAIL_TOPIC,
        newsletterMail('already', email, locale, unsubscribeLink(deps.publicUrl, existing.token)),
      )
    const token = randomBytes(32).toString('base64url')
    await trx
      .insertInto('newsletter_confirmation')
      .values({
        email,
        language: locale,
        token_hash: sha256(token),
        created_at: now(),
        expires_at: new Date(Date.now() + NEWSLETTER_CONFIRM_MS).toISOString(),
        used_at: null,
      })
      .execute()
    const link = `${deps.publicUrl}/newsletter/confirm/${token}`
    await enqueue(trx, EMAIL_TOPIC, newsletterMail('confirm', email, locale, link))
  })
  return SUBSCRIBED_REPLY
}

/** Subscribes (again) a confirmed address under a new unsubscribe token, and mails the welcome. */
export async function startSubscription(
  trx: Transaction<Database>,
  publicUrl: string,
  confirmed: { email: string; language: string },
) {
  const existing = await trx
    .selectFrom('newsletter_subscriber')
    .select(['id', 'unsubscribed_at'])
    .where('email', '=', confirmed.email)
    .executeTakeFirst()
  if (existing && !existing.unsubscribed_at) return
  const token = randomBytes(24).toString('base64url')
  const { email, language } = confirmed
  if (existing)
    await trx
      .updateTable('newsletter_subscriber')
      .set({ token, language, subscribed_at: now(), unsubscribed_at: null })
      .where('id', '=', existing.id)
      .execute()
  else
    await trx
      .insertInto('newsletter_subscriber')
      .values({ email, token, language, subscribed_at: now(), unsubscribed_at: null })
      .execute()
  const mail = newsletterMail('welcome', email, asLocale(language), unsubscribeLink(publicUrl, token))
  await enqueue(trx, EMAIL_TOPIC, mail)
}

/** Starts the subscription a mailed link asked for; the link works once. */
export async function confirmSubscription(deps: SubscriptionDeps, token: string, ip: string) {
  await throttle(deps.rateLimiter, rules.confirm, ip)
  const confirmed = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('newsletter_confirmation')
      .selectAll()
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now())
      .executeTakeFirst()
    if (!row) return false
    // Every link of this address ends here, so an older one cannot subscribe it again after it leaves.
    const used = await trx
      .updateTable('newsletter_confirmation')
      .set({ used_at: now() })
      .where('email', '=', row.email)
      .where('used_at', 'is', null)
      .execute()
    if (!used.some((r) => Number(r.numUpdatedRows) > 0)) return false
    await startSubscription(trx, deps.publicUrl, row)
    return true
  })
  if (!confirmed)
    throw new ApiError(400, 'Invalid', 'Invalid or expired link', { token: ['is invalid or expired'] })
  return CONFIRMED_REPLY
}

export async function unsubscribe(db: DB, token: string) {
  const row = await db
    .selectFrom('newsletter_subscriber')
    .select(['id', 'email', 'unsubscribed_at'])
    .where('token', '=', token)
    .executeTakeFirst()
  if (!row) throw notFound('Subscription')
  await endSubscription(db, row.email)
  return UNSUBSCRIBED_REPLY
}

/** Ends an address's subscription, if it has one, and every confirmation link still in its inbox. */
export async function endSubscription(db: DB, address: string) {
  const email = address.trim().toLowerCase()
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('newsletter_subscriber')
      .set({ unsubscribed_at: now() })
      .where('email', '=', email)
      .where('unsubscribed_at', 'is', null)
      .execute()
    // A confirmation link still in the inbox must not bring the address back.
    await trx
      .updateTable('newsletter_confirmation')
      .set({ used_at: now() })
      .where('email', '=', email)
      .where('used_at', 'is', null)
      .execute()
  })
}
