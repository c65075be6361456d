import { timestampType, withId, type Migration } from './helpers.ts'

// Newsletter double opt-in (issue 14, decision 092): a subscription starts only when the owner of
// the address opens the mailed link and confirms. Each request is a row holding the SHA-256 of the
// link's random token (single use, expiring); a used row stays as the record of the consent.
export const newsletterConfirmation: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await withId(db.schema.createTable('newsletter_confirmation'), dialect)
      .addColumn('email', 'text', (c) => c.notNull()) // lower-cased
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('expires_at', ts, (c) => c.notNull())
      .addColumn('used_at', ts)
      .execute()
    await db.schema
      .createIndex('newsletter_confirmation_email_idx')
      .on('newsletter_confirmation')
      .column('email')
      .execute()
    await db.schema
      .createIndex('newsletter_confirmation_expires_idx')
      .on('newsletter_confirmation')
      .column('expires_at')
      .execute()
  },
}
