import { timestampType, type Migration } from './helpers.ts'

// Notification preferences (issue 42 item 1): a person turns a kind of notice (proposals, contract
// steps, money, chat, complaints) off in the site or by email. Only what they changed is stored: a
// kind and channel without a row is on. `notice_mail` remembers which notice was mailed to whom, so
// a delivery retried by the outbox never mails it twice. Frozen (decision 100).
export const notificationPreferences: Migration = {
  async up(db, dialect) {
    await db.schema
      .createTable('notification_preference')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull()) // site | email
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('updated_at', timestampType(dialect), (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_preference_pk', ['user_id', 'kind', 'channel'])
      .execute()
    await db.schema
      .createTable('notice_mail')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .addPrimaryKeyConstraint('notice_mail_pk', ['user_id', 'source'])
      .execute()
  },
}
