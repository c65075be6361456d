import { sql } from 'kysely'
import { timestampType, withId, type Migration } from './helpers.ts'

// A person's export of their own data (issue 42 item 2, decision 331). A row is one request:
// `preparing` until the job has written the archive, then `ready` with the archive's storage key and
// the hash of the link's token until `expires_at`, then `expired` once the sweep removed the archive
// (`failed` if it could not be built). At most one request of a person is preparing at a time (the
// partial unique index), whatever the number of instances. Frozen (decision 100).
export const dataExports: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await withId(db.schema.createTable('data_export'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('status', 'text', (c) => c.notNull()) // preparing | ready | expired | failed
      .addColumn('token_hash', 'text')
      .addColumn('archive_key', 'text')
      .addColumn('archive_size', 'integer')
      .addColumn('requested_at', ts, (c) => c.notNull())
      .addColumn('ready_at', ts)
      .addColumn('expires_at', ts)
      .addColumn('downloaded_at', ts)
      .execute()
    await db.schema
      .createIndex('data_export_user_idx')
      .on('data_export')
      .columns(['user_id', 'requested_at'])
      .execute()
    await db.schema
      .createIndex('data_export_preparing_idx')
      .unique()
      .on('data_export')
      .column('user_id')
      .where(sql.ref('status'), '=', 'preparing')
      .execute()
    await db.schema
      .createIndex('data_export_token_idx')
      .unique()
      .on('data_export')
      .column('token_hash')
      .execute()
    await db.schema
      .createIndex('data_export_expiry_idx')
      .on('data_export')
      .columns(['status', 'expires_at'])
      .execute()
  },
}
