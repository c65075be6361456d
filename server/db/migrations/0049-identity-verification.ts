import { sql } from 'kysely'
import { timestampType, withId, type Migration } from './helpers.ts'

// Verified identity (issue 42 item 4, decision 332): a freelancer or a company asks to be verified
// with a document; a SuperAdmin approves or rejects it with a reason. At most one request of a
// person is pending (the partial unique index). The document lives in its own row, encrypted
// (AES-256-GCM under a key of its own, itself wrapped by the platform's key), and that row is
// deleted when the request is decided. Frozen (decision 100).
export const identityVerification: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('identity_verification'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull()) // identity | company
      .addColumn('state', 'text', (c) => c.notNull()) // pending | verified | rejected
      .addColumn('reason', 'text')
      .addColumn('decided_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .addColumn('decided_at', timestampType(dialect))
      .execute()
    await sql`create unique index identity_verification_open on identity_verification (user_id) where state = 'pending'`.execute(
      db,
    )
    await db.schema
      .createIndex('identity_verification_state')
      .on('identity_verification')
      .columns(['state', 'user_id'])
      .execute()
    await db.schema
      .createTable('verification_document')
      .addColumn('verification_id', 'integer', (c) =>
        c.primaryKey().references('identity_verification.id').onDelete('cascade'),
      )
      .addColumn('original_name', 'text', (c) => c.notNull())
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('wrapped_key', 'text', (c) => c.notNull())
      .addColumn('iv', 'text', (c) => c.notNull())
      .addColumn('tag', 'text', (c) => c.notNull())
      .addColumn('ciphertext', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .execute()
  },
}
