import { timestampType, withId, type Migration } from './helpers.ts'

// Web Push subscriptions (issue 42 item 6, decision 337): one row per browser a person turned push
// on in, its push service's endpoint (unique: a browser profile has one) and the keys that encrypt
// the messages to it, and the session that turned it on (a device signed out of gets nothing more). `label` names the device for its owner ("Chrome on Android"). The push
// channel of a notice kind is a `notification_preference` row like the others (0046); `notice_push`
// remembers which notice was pushed to whom, so a retried delivery never pushes it twice. Frozen
// (decision 100).
export const pushSubscriptions: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await withId(db.schema.createTable('push_subscription'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('session_id', 'text', (c) => c.notNull().references('user_session.id').onDelete('cascade'))
      .addColumn('endpoint', 'text', (c) => c.notNull().unique())
      .addColumn('p256dh', 'text', (c) => c.notNull())
      .addColumn('auth', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('push_subscription_user_idx')
      .on('push_subscription')
      .columns(['user_id'])
      .execute()
    await db.schema
      .createTable('notice_push')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('notice_push_pk', ['user_id', 'source'])
      .execute()
  },
}
