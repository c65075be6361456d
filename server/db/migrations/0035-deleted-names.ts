import { sql } from 'kysely'
import type { Migration } from './helpers.ts'

// A deleted account's name is no longer stored as the English words "Deleted user" (decision 271):
// its names are blank and every screen says "Deleted user" in the reader's language from the
// account's status. Accounts deleted before (decision 236) get the same blanks, so one rule reads
// both. Only the exact words that erasure wrote are cleared, only for deleted accounts. Frozen
// (decision 100): plain statements of this date, the same on SQLite and PostgreSQL.
export const deletedNames: Migration = {
  async up(db) {
    const deleted = sql`select id from app_user where status = 'Deleted'`
    await sql`update app_user set first_name = '', last_name = '' where status = 'Deleted' and first_name = 'Deleted' and last_name = 'user'`.execute(
      db,
    )
    await sql`update payment_method set holder_name = '' where holder_name = 'Deleted user' and user_id in (${deleted})`.execute(
      db,
    )
    await sql`update contact_message set name = '' where name = 'Deleted user' and user_id in (${deleted})`.execute(
      db,
    )
    await sql`update complaint set name = '' where name = 'Deleted user' and author_id in (${deleted})`.execute(
      db,
    )
    // An invoice issued after its party was deleted named them so.
    await sql`update invoice set issuer_name = '' where issuer_name = 'Deleted user' and issuer_user_id in (${deleted})`.execute(
      db,
    )
    await sql`update invoice set recipient_name = '' where recipient_name = 'Deleted user' and recipient_user_id in (${deleted})`.execute(
      db,
    )
  },
}
