import { timestampType, withId, type Migration } from './helpers.ts'

// Complaints and support tickets (issue 18 item 1, decisions 210–214) and the admin audit trail
// (issue 18 item 5). A complaint is a ticket about one thing its author is part of (a project, a
// contract, an installment, a chat room, a user) or about the platform; a message sent through
// /contact-us becomes one too (`source` 'contact', author null for a visitor: reached by `email`).
// Its conversation is complaint_message (support's replies marked `from_support`), files in
// complaint_attachment. admin_audit records who did what to which object, when and why; rows are
// appended, never changed.
export const complaints: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await withId(db.schema.createTable('complaint'), dialect)
      .addColumn('author_id', 'integer', (c) => c.references('app_user.id'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
      .addColumn('source', 'text', (c) => c.notNull()) // app | contact
      .addColumn('contact_message_id', 'integer', (c) => c.references('contact_message.id'))
      .addColumn('subject_kind', 'text', (c) => c.notNull()) // project | contract | installment | chat_room | user | platform
      .addColumn('subject_id', 'integer')
      .addColumn('subject_label', 'text', (c) => c.notNull())
      .addColumn('other_party_id', 'integer', (c) => c.references('app_user.id'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('assignee_id', 'integer', (c) => c.references('app_user.id'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute()
    await db.schema.createIndex('complaint_author_idx').on('complaint').columns(['author_id', 'id']).execute()
    await db.schema
      .createIndex('complaint_queue_idx')
      .on('complaint')
      .columns(['status', 'subject_kind', 'id'])
      .execute()

    await withId(db.schema.createTable('complaint_message'), dialect)
      .addColumn('complaint_id', 'integer', (c) => c.notNull().references('complaint.id'))
      .addColumn('author_id', 'integer', (c) => c.references('app_user.id'))
      .addColumn('from_support', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('complaint_message_complaint_idx')
      .on('complaint_message')
      .columns(['complaint_id', 'id'])
      .execute()

    await db.schema
      .createTable('complaint_attachment')
      .addColumn('message_id', 'integer', (c) => c.notNull().references('complaint_message.id'))
      .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_file.id'))
      .addPrimaryKeyConstraint('complaint_attachment_pk', ['message_id', 'file_id'])
      .execute()
    await db.schema
      .createIndex('complaint_attachment_file_idx')
      .on('complaint_attachment')
      .columns(['file_id'])
      .execute()

    await withId(db.schema.createTable('admin_audit'), dialect)
      .addColumn('actor_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('object_type', 'text', (c) => c.notNull())
      .addColumn('object_id', 'integer')
      .addColumn('from_state', 'text')
      .addColumn('to_state', 'text')
      .addColumn('reason', 'text')
      .addColumn('at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('admin_audit_object_idx')
      .on('admin_audit')
      .columns(['object_type', 'object_id', 'id'])
      .execute()
    await db.schema
      .createIndex('admin_audit_actor_idx')
      .on('admin_audit')
      .columns(['actor_id', 'id'])
      .execute()
  },
}
