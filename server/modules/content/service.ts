import fs from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import type { DB } from '../../db/database.ts'
import type { Transaction } from 'kysely'
import { locales, type Database, type Locale } from '../../db/schema.ts'
import { ApiError, notFound } from '../../api/errors.ts'
import { enqueue } from '../../jobs/outbox.ts'
import { EMAIL_TOPIC, type EmailMessage } from '../../jobs/mailer.ts'
import type { RateLimiter, RateLimitRule } from '../../lib/rate-limit.ts'
import { createShortCache } from '../../lib/short-cache.ts'
import { localBus, type CacheBus } from '../../lib/cache-bus.ts'
import {
  CONFIRMED_REPLY,
  SUBSCRIBED_REPLY,
  UNSUBSCRIBED_REPLY,
  newsletterAddress,
  type contactMessage,
} from './contract.ts'
import { sha256 } from '../identity/tokens.ts'
import type { z } from 'zod'

// The public site's content, the newsletter and the contact form. Texts are stored per language;
// the caller's language picks the column, and an item not written in it is not shown (decision 241).
export interface ContentOptions {
  db: DB
  rateLimiter?: RateLimiter
  /** The site's address (PUBLIC_URL), the base of links in mails: never the request's Host. */
  publicUrl: string
  /** Where contact-form messages go. */
  supportInbox?: string
  /** How long the content shown to everyone is kept in memory (0: not at all). */
  cacheTtlMs?: number
  /** Forgets the kept content on every instance at a write (decision 269). */
  bus?: CacheBus
  /** Makes a support ticket of a stored contact message, in its transaction (complaints module, decision 215). */
  contactTicket?: (
    trx: Transaction<Database>,
    contact: {
      id: number
      name: string
      email: string
      subject: string
      message: string
      language: Locale
      userId: number | null
    },
  ) => Promise<unknown>
}

export const CONTENT_CACHE_TTL_MS = 60_000
/** How long a newsletter confirmation link works (decision 092). */
export const NEWSLETTER_CONFIRM_MS = 48 * 3600_000

const rules = {
  subscribe: { name: 'newsletter:ip', limit: 20, windowMs: 10 * 60_000 } satisfies RateLimitRule,
  // Every request mails the address's owner, so one address gets at most this many a day.
  subscribeMails: { name: 'newsletter:address', limit: 3, windowMs: 24 * 3600_000 } satisfies RateLimitRule,
  confirm: { name: 'newsletter-confirm:ip', limit: 30, windowMs: 15 * 60_000 } satisfies RateLimitRule,
  contact: { name: 'contact:ip', limit: 5, windowMs: 10 * 60_000 } satisfies RateLimitRule,
}

export function createContentService(options: ContentOptions) {
  const { db } = options
  const publicUrl = options.publicUrl.replace(/\/$/, '')
  const supportInbox = options.supportInbox ?? 'support@workneer.local'
  const now = () => new Date().toISOString()
  const cache = createShortCache(options.cacheTtlMs ?? CONTENT_CACHE_TTL_MS, {
    shared: { bus: options.bus ?? localBus(), name: 'content' },
  })

  async function limit(rule: RateLimitRule, ip: string) {
    if (!options.rateLimiter || !ip) return
    const decision = await options.rateLimiter.hit(rule, ip)
    if (!decision.ok) {
      const error = new ApiError(
        429,
        'Too Many Requests',
        `Too many attempts. Try again in ${decision.retryAfter} seconds.`,
      )
      error.headers = { 'retry-after': String(decision.retryAfter) }
      throw error
    }
  }

  async function faq(locale: Locale) {
    return cache.get(`faq:${locale}`, () => loadFaq(locale))
  }

  async function loadFaq(locale: Locale) {
    return db
      .selectFrom('faq_entry')
      .select(['id', 'slug', 'audience', `question_${locale} as question`, `answer_${locale} as answer`])
      .where(`question_${locale}`, '!=', '')
      .orderBy('sort_order')
      .orderBy('id')
      .execute()
  }

  const blogColumns = (locale: Locale) =>
    [
      'id',
      'slug',
      'author',
      'tags',
      'image_url',
      'published_at',
      `title_${locale} as title`,
      `summary_${locale} as summary`,
    ] as const
  const toSummary = (r: {
    id: number
    slug: string
    author: string
    tags: string
    image_url: string | null
    published_at: string
    title: string
    summary: string
  }) => ({
    id: r.id,
    slug: r.slug,
    title: r.title,
    summary: r.summary,
    author: r.author,
    tags: r.tags ? r.tags.split(',') : [],
    imageUrl: r.image_url,
    publishedAt: r.published_at,
  })

  async function blogs(locale: Locale, page: number, pageSize: number) {
    const { total } = await db
      .selectFrom('blog_post')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('published', '=', 1)
      .where(`title_${locale}`, '!=', '')
      .executeTakeFirstOrThrow()
    const rows = await db
      .selectFrom('blog_post')
      .select(blogColumns(locale))
      .where('published', '=', 1)
      .where(`title_${locale}`, '!=', '')
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute()
    const count = Number(total)
    return {
      data: rows.map(toSummary),
      page,
      pageSize,
      total: count,
      totalPages: Math.max(1, Math.ceil(count / pageSize)),
    }
  }

  async function blog(locale: Locale, id: number) {
    const row = await db
      .selectFrom('blog_post')
      .select([...blogColumns(locale), `body_${locale} as body`])
      .where('id', '=', id)
      .where('published', '=', 1)
      .where(`title_${locale}`, '!=', '')
      .executeTakeFirst()
    if (!row) throw notFound('Blog post')
    return { ...toSummary(row), body: row.body }
  }

  async function homeBoxes(locale: Locale) {
    return cache.get(`home-boxes:${locale}`, () =>
      db
        .selectFrom('home_box')
        .select(['id', 'slug', 'icon', `title_${locale} as title`, `body_${locale} as body`])
        .where(`title_${locale}`, '!=', '')
        .orderBy('sort_order')
        .orderBy('id')
        .execute(),
    )
  }

  async function services(locale: Locale) {
    return cache.get(`services:${locale}`, () =>
      db
        .selectFrom('service_highlight')
        .select(['id', 'slug', 'area_slug as areaSlug', `title_${locale} as title`, `body_${locale} as body`])
        .where(`title_${locale}`, '!=', '')
        .orderBy('sort_order')
        .orderBy('id')
        .execute(),
    )
  }

  async function logos() {
    return cache.get('logos', () =>
      db
        .selectFrom('partner_logo')
        .select(['id', 'name', 'image_url as imageUrl', 'link_url as linkUrl'])
        .orderBy('sort_order')
        .orderBy('id')
        .execute(),
    )
  }

  async function page(locale: Locale, slug: string) {
    // An unknown slug is not kept (the load throws), so only existing pages take room.
    return cache.get(`page:${locale}:${slug}`, async () => {
      const row = await db
        .selectFrom('content_page')
        .select(['slug', 'updated_at as updatedAt', `title_${locale} as title`, `body_${locale} as body`])
        .where('slug', '=', slug)
        .executeTakeFirst()
      if (!row) throw notFound('Page')
      return row
    })
  }

  /** Every write to the content the site shows (the admin area's, modules/content/admin.ts) ends with this. */
  function contentChanged() {
    return cache.clear()
  }

  // Double opt-in (decision 092): asking only mails the owner, who starts the subscription from the
  // link. The answer is the same for a new, pending, subscribed or unsubscribed address, and past
  // the address's daily mail limit, so it tells nothing about the address.
  async function subscribe(address: string, locale: Locale, ip: string) {
    const email = address.trim().toLowerCase()
    if (!newsletterAddress.test(email))
      throw new ApiError(400, 'Invalid Info', 'address: must be an email address', {
        address: ['must be an email address'],
      })
    await limit(rules.subscribe, ip)
    const mails = options.rateLimiter
      ? await options.rateLimiter.hit(rules.subscribeMails, email)
      : { ok: true }
    if (!mails.ok) return SUBSCRIBED_REPLY
    await db.transaction().execute(async (trx) => {
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
          newsletterMail('already', email, locale, unsubscribeLink(existing.token)),
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
      await enqueue(
        trx,
        EMAIL_TOPIC,
        newsletterMail('confirm', email, locale, `${publicUrl}/newsletter/confirm/${token}`),
      )
    })
    return SUBSCRIBED_REPLY
  }

  const unsubscribeLink = (token: string) => `${publicUrl}/newsletter/unsubscribe/${token}`
  const invalidLink = () =>
    new ApiError(400, 'Invalid', 'Invalid or expired link', { token: ['is invalid or expired'] })

  /** Starts the subscription a mailed link asked for; the link works once. */
  async function confirmSubscription(token: string, ip: string) {
    await limit(rules.confirm, ip)
    const confirmed = await db.transaction().execute(async (trx) => {
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
      const existing = await trx
        .selectFrom('newsletter_subscriber')
        .select(['id', 'unsubscribed_at'])
        .where('email', '=', row.email)
        .executeTakeFirst()
      if (existing && !existing.unsubscribed_at) return true
      const unsubscribe = randomBytes(24).toString('base64url')
      if (existing)
        await trx
          .updateTable('newsletter_subscriber')
          .set({ token: unsubscribe, language: row.language, subscribed_at: now(), unsubscribed_at: null })
          .where('id', '=', existing.id)
          .execute()
      else
        await trx
          .insertInto('newsletter_subscriber')
          .values({
            email: row.email,
            token: unsubscribe,
            language: row.language,
            subscribed_at: now(),
            unsubscribed_at: null,
          })
          .execute()
      await enqueue(
        trx,
        EMAIL_TOPIC,
        newsletterMail('welcome', row.email, asLocale(row.language), unsubscribeLink(unsubscribe)),
      )
      return true
    })
    if (!confirmed) throw invalidLink()
    return CONFIRMED_REPLY
  }

  async function unsubscribe(token: string) {
    const row = await db
      .selectFrom('newsletter_subscriber')
      .select(['id', 'email', 'unsubscribed_at'])
      .where('token', '=', token)
      .executeTakeFirst()
    if (!row) throw notFound('Subscription')
    await db.transaction().execute(async (trx) => {
      if (!row.unsubscribed_at)
        await trx
          .updateTable('newsletter_subscriber')
          .set({ unsubscribed_at: now() })
          .where('id', '=', row.id)
          .execute()
      // A confirmation link still in the inbox must not bring the address back.
      await trx
        .updateTable('newsletter_confirmation')
        .set({ used_at: now() })
        .where('email', '=', row.email)
        .where('used_at', 'is', null)
        .execute()
    })
    return UNSUBSCRIBED_REPLY
  }

  async function contact(
    input: z.output<typeof contactMessage>,
    meta: { locale: Locale; ip: string; userId: number | null },
  ) {
    await limit(rules.contact, meta.ip)
    const id = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('contact_message')
        .values({
          ...input,
          email: input.email.toLowerCase(),
          language: meta.locale,
          user_id: meta.userId,
          ip: meta.ip || null,
          created_at: now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await enqueue(trx, EMAIL_TOPIC, supportMail(row.id, input, meta.locale, supportInbox))
      await options.contactTicket?.(trx, {
        id: row.id,
        ...input,
        email: input.email.toLowerCase(),
        language: meta.locale,
        userId: meta.userId,
      })
      return row.id
    })
    return { id }
  }

  return {
    faq,
    blogs,
    blog,
    homeBoxes,
    services,
    logos,
    page,
    subscribe,
    confirmSubscription,
    unsubscribe,
    contact,
    contentChanged,
  }
}

export type ContentService = ReturnType<typeof createContentService>

// Mails of this module, in the recipient's language, from locales/<lng>/content.json (mail.*).
const localesDir = path.resolve(import.meta.dirname, '../../../locales')
const mailTexts = new Map<Locale, Record<string, string>>()
function mailText(locale: Locale) {
  let t = mailTexts.get(locale)
  if (!t)
    mailTexts.set(
      locale,
      (t = (
        JSON.parse(fs.readFileSync(path.join(localesDir, locale, 'content.json'), 'utf8')) as {
          mail: Record<string, string>
        }
      ).mail),
    )
  return t
}
const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
const asLocale = (l: string): Locale => ((locales as readonly string[]).includes(l) ? (l as Locale) : 'en')

// The newsletter's three mails: the link that starts a subscription, the welcome once it has
// started, and the reminder to an address that asks again while subscribed.
function newsletterMail(
  kind: 'confirm' | 'welcome' | 'already',
  to: string,
  language: Locale,
  link: string,
): EmailMessage {
  const t = mailText(asLocale(language))
  const parts: Record<typeof kind, { subject: string; paragraphs: string[]; linkText: string }> = {
    confirm: {
      subject: t.confirmSubject,
      paragraphs: [t.confirmIntro, t.welcomeBody],
      linkText: t.confirmLink,
    },
    welcome: {
      subject: t.welcomeSubject,
      paragraphs: [t.welcomeIntro, t.welcomeBody],
      linkText: t.unsubscribe,
    },
    already: { subject: t.alreadySubject, paragraphs: [t.alreadyIntro], linkText: t.unsubscribe },
  }
  const { subject, paragraphs, linkText } = parts[kind]
  const footer = kind === 'confirm' ? t.confirmIgnore : ''
  const text = [
    ...paragraphs.flatMap((p) => [p, '']),
    `${linkText}: ${link}`,
    ...(footer ? ['', footer] : []),
  ].join('\n')
  const linkHtml =
    kind === 'confirm'
      ? `<p><a href="${escape(link)}" style="display:inline-block;padding:10px 18px;background:#1d5fa8;color:#fff;text-decoration:none;border-radius:6px">${escape(linkText)}</a></p>`
      : `<hr style="border:none;border-top:1px solid #dde3ea"><p style="font-size:13px;color:#555"><a href="${escape(link)}">${escape(linkText)}</a></p>`
  const html = `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;color:#1b2430;max-width:560px;margin:0 auto;padding:24px">${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('')}${linkHtml}${footer ? `<p style="font-size:13px;color:#555">${escape(footer)}</p>` : ''}</body></html>`
  return { to, subject, text, html, language, kind: `newsletter-${kind}` }
}

function supportMail(
  id: number,
  input: z.output<typeof contactMessage>,
  language: Locale,
  to: string,
): EmailMessage {
  const text = [
    `Contact message #${id} (${language})`,
    `From: ${input.name} <${input.email}>`,
    `Subject: ${input.subject}`,
    '',
    input.message,
  ].join('\n')
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif"><p>Contact message #${id} (${language})<br>From: ${escape(input.name)} &lt;${escape(input.email)}&gt;<br>Subject: ${escape(input.subject)}</p><p style="white-space:pre-line">${escape(input.message)}</p></body></html>`
  return { to, subject: `[Contact #${id}] ${input.subject}`, text, html, language: 'en', kind: 'contact-us' }
}
