import { timestampType, withId, type Migration } from './helpers.ts'

// Stored notifications (docs/product.md §3/§4, the bell). A row holds a message key and its parameters, not
// text, so each reader sees it in their own language. `source` names what produced it (an outbox
// row id, `outbox:42`): unique per user, so a retried delivery cannot add the same one twice.
export const notifications: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('notification'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('message_key', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('project_id', 'integer')
      .addColumn('room_id', 'integer')
      .addColumn('sender_id', 'integer')
      .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('notification_source_idx')
      .on('notification')
      .columns(['user_id', 'source'])
      .unique()
      .execute()
    // The list (the reader's, newest first, by offset) and the unread count, each from one index.
    await db.schema
      .createIndex('notification_user_idx')
      .on('notification')
      .columns(['user_id', 'id'])
      .execute()
    await db.schema
      .createIndex('notification_unread_idx')
      .on('notification')
      .columns(['user_id', 'is_read'])
      .execute()
  },
}
