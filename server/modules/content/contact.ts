import type { Transaction } from 'kysely'
import type { z } from 'zod'
import type { DB } from '#server/db/database.ts'
import type { Database, Locale } from '#server/db/schema.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { EMAIL_TOPIC } from '#server/jobs/mailer.ts'
import type { RateLimiter } from '#server/lib/rate-limit.ts'
import type { contactMessage } from './contract.ts'
import { supportMail } from './mails.ts'
import { contentRateRules, throttle } from './rate-limits.ts'

// The contact form: the message is stored, mailed to the support inbox and, through the
// complaints module, becomes a support ticket, all in one transaction.

/** Makes a support ticket of a stored contact message, in its transaction (complaints module, decision 215). */
export type ContactTicket = (
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

export type ContactInput = z.output<typeof contactMessage>

export interface ContactDeps {
  db: DB
  rateLimiter?: RateLimiter
  /** Where contact-form messages go. */
  supportInbox: string
  contactTicket?: ContactTicket
}

export async function contact(
  deps: ContactDeps,
  input: ContactInput,
  meta: { locale: Locale; ip: string; userId: number | null },
) {
  await throttle(deps.rateLimiter, contentRateRules.contact, meta.ip)
  const email = input.email.toLowerCase()
  const id = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('contact_message')
      .values({
        ...input,
        email,
        language: meta.locale,
        user_id: meta.userId,
        ip: meta.ip || null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await enqueue(trx, EMAIL_TOPIC, supportMail(row.id, input, meta.locale, deps.supportInbox))
    await deps.contactTicket?.(trx, {
      id: row.id,
      ...input,
      email,
      language: meta.locale,
      userId: meta.userId,
    })
    return row.id
  })
  return { id }
}
