import type { Migration } from './helpers.ts'
import { timestampType, withId } from './helpers.ts'

// Stored files: the bytes live in the file storage under storage_key; who may read a file follows
// its purpose (profile image, portfolio, project or chat attachment).
export const files: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('stored_file'), dialect)
      .addColumn('owner_id', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('original_name', 'text', (c) => c.notNull())
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('attachment_type', 'integer', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('stored_file_owner_idx')
      .on('stored_file')
      .columns(['owner_id', 'purpose'])
      .execute()
  },
}
