import { sql } from 'kysely'
import { timestampType, withId, type Migration } from './helpers.ts'

// Chat (issue 16, decision 150). A room per project and freelancer (the client is the project's);
// a member row per side with its read state, its place in the member's chat list
// (`last_activity_at`) and its away-alert state (0 none, 1 scheduled, 2 sent; reset on read).
// A message's `client_message_id` is the sender's retry key (system messages: `system:<source>`),
// unique per room. Contracts made before this release get their room here, and `contract.room_id`
// (text since 0006) holds the room's id from now on.
export const chat: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('chat_room'), dialect)
      .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
      .addColumn('client_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('freelancer_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('last_message_id', 'integer')
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('chat_room_parties_idx')
      .on('chat_room')
      .columns(['project_id', 'freelancer_id'])
      .unique()
      .execute()

    await db.schema
      .createTable('chat_member')
      .addColumn('room_id', 'integer', (c) => c.notNull().references('chat_room.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('last_read_message_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_activity_at', timestampType(dialect), (c) => c.notNull())
      .addColumn('alert_state', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('email_state', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('chat_member_pk', ['room_id', 'user_id'])
      .execute()
    // A member's chat list, most recent first, from one index.
    await db.schema
      .createIndex('chat_member_list_idx')
      .on('chat_member')
      .columns(['user_id', 'last_activity_at', 'room_id'])
      .execute()

    await withId(db.schema.createTable('chat_message'), dialect)
      .addColumn('room_id', 'integer', (c) => c.notNull().references('chat_room.id').onDelete('cascade'))
      .addColumn('sender_id', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
      .addColumn('client_message_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('event', 'text')
      .addColumn('params', 'text')
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('chat_message_client_idx')
      .on('chat_message')
      .columns(['room_id', 'client_message_id'])
      .unique()
      .execute()
    // A room's history backwards from the newest, and its unread count, from one index.
    await db.schema
      .createIndex('chat_message_room_idx')
      .on('chat_message')
      .columns(['room_id', 'id'])
      .execute()

    await db.schema
      .createTable('chat_attachment')
      .addColumn('message_id', 'integer', (c) =>
        c.notNull().references('chat_message.id').onDelete('cascade'),
      )
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_file.id'))
      .addPrimaryKeyConstraint('chat_attachment_pk', ['message_id', 'position'])
      .execute()
    await db.schema.createIndex('chat_attachment_file_idx').on('chat_attachment').column('file_id').execute()

    // The rooms of the contracts that exist already.
    await sql`INSERT INTO chat_room (project_id, client_id, freelancer_id, created_at) SELECT project_id, client_id, freelancer_id, created_at FROM contract`.execute(
      db,
    )
    await sql`INSERT INTO chat_member (room_id, user_id, role, last_activity_at) SELECT id, client_id, 'client', created_at FROM chat_room`.execute(
      db,
    )
    await sql`INSERT INTO chat_member (room_id, user_id, role, last_activity_at) SELECT id, freelancer_id, 'freelancer', created_at FROM chat_room`.execute(
      db,
    )
    await sql`UPDATE contract SET room_id = (SELECT CAST(r.id AS text) FROM chat_room r WHERE r.project_id = contract.project_id AND r.freelancer_id = contract.freelancer_id)`.execute(
      db,
    )
  },
}
