import { timestampType, withId, type Migration } from './helpers.ts'

// Job alerts stored per publication instead of per matched search (issue 41, decision 343). A
// published project (or a freelancer who newly fits) is one `alert_target` row, with what matching
// reads of it (`facets`, JSON) and the keys it is found under (`alert_target_key`, by publication
// time); the digest finds each search's new matches there, under the search's own keys, since its
// `digest_since` (null until its first digest: since it was saved). `saved_search_match` (a row per matched search) is dropped: the matches it held
// when this runs are not mailed (at most a week's). Frozen (decision 100).
export const alertTargets: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await withId(db.schema.createTable('alert_target'), dialect)
      .addColumn('kind', 'text', (c) => c.notNull()) // project | freelancer, as saved_search.kind
      .addColumn('target_id', 'integer', (c) => c.notNull())
      // Whose project or profile it is: they are never told of their own.
      .addColumn('owner_id', 'integer', (c) => c.notNull())
      .addColumn('facets', 'text', (c) => c.notNull()) // JSON
      .addColumn('published_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('alert_target_key')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('published_at', ts, (c) => c.notNull())
      .addColumn('alert_target_id', 'integer', (c) =>
        c.notNull().references('alert_target.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('alert_target_key_pkey', ['kind', 'key', 'published_at', 'alert_target_id'])
      .execute()
    await db.schema
      .createIndex('alert_target_key_target_idx')
      .on('alert_target_key')
      .columns(['alert_target_id'])
      .execute()
    await db.schema.alterTable('saved_search').addColumn('digest_since', ts).execute()
    await db.schema.dropTable('saved_search_match').execute()
  },
}
