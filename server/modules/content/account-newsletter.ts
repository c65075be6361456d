import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'
import { endSubscription, startSubscription } from './subscriptions.ts'

// The newsletter as a kind of a person's notification settings (issue 42 item 1, decision 340).
// One truth: the subscription of their account's address (newsletter_subscriber), the same row the
// newsletter's own links start and end; the settings read it and change it, and keep no flag.
export interface AccountNewsletter {
  subscribed(email: string): Promise<boolean>
  /** Subscribes an address its owner proved (a verified account's), at once: the welcome mail says so. */
  subscribe(email: string, language: Locale): Promise<void>
  unsubscribe(email: string): Promise<void>
}

export function accountNewsletter(db: DB, publicUrl: string): AccountNewsletter {
  const base = publicUrl.replace(/\/$/, '')
  return {
    async subscribed(email) {
      const row = await db
        .selectFrom('newsletter_subscriber')
        .select('id')
        .where('email', '=', email.trim().toLowerCase())
        .where('unsubscribed_at', 'is', null)
        .executeTakeFirst()
      return !!row
    },
    subscribe: (email, language) =>
      db
        .transaction()
        .execute((trx) => startSubscription(trx, base, { email: email.trim().toLowerCase(), language })),
    unsubscribe: (email) => endSubscription(db, email),
  }
}
