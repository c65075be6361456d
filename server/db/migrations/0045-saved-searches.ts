import { sql } from 'kysely'
import { timestampType, withId, type Migration } from './helpers.ts'

// Saved searches and job alerts (issue 41 item 1, decision 328). A saved search is its owner's
// filters of Find Project (kind `project`, a freelancer's) or Find Freelancers (kind `freelancer`,
// a client's), kept as JSON. `saved_search_key` indexes each active search under the one most
// selective facet it requires (a subcategory, a category, each of its skills, a word's first
// letters, or `all`), so a published project reads only the searches keyed by its own facets
// instead of running every search. `saved_search_match` is each new match, once, until the digest
// mails it. Frozen (decision 100).
export const savedSearches: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await withId(db.schema.createTable('saved_search'), dialect)
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('kind', 'text', (c) => c.notNull()) // project | freelancer
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('filters', 'text', (c) => c.notNull()) // JSON
      .addColumn('frequency', 'text', (c) => c.notNull()) // daily | weekly | never (the email digest)
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      // The freelancer's first alert follows their profile's categories and skills until they edit it.
      .addColumn('from_profile', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('notified_at', ts)
      .addColumn('digest_due_at', ts, (c) => c.notNull())
      .addColumn('digest_claimed_until', ts)
      // Raised by each unsubscription: a link signed with an older value is spent.
      .addColumn('unsubscribe_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('saved_search_owner_idx')
      .on('saved_search')
      .columns(['owner_id', 'id'])
      .execute()
    await db.schema
      .createIndex('saved_search_digest_idx')
      .on('saved_search')
      .columns(['digest_due_at'])
      .where(sql.ref('frequency'), '<>', 'never')
      .execute()
    await db.schema
      .createTable('saved_search_key')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('saved_search_id', 'integer', (c) =>
        c.notNull().references('saved_search.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('saved_search_key_pkey', ['kind', 'key', 'saved_search_id'])
      .execute()
    await db.schema
      .createIndex('saved_search_key_search_idx')
      .on('saved_search_key')
      .columns(['saved_search_id'])
      .execute()
    await db.schema
      .createTable('saved_search_match')
      .addColumn('saved_search_id', 'integer', (c) =>
        c.notNull().references('saved_search.id').onDelete('cascade'),
      )
      .addColumn('target_id', 'integer', (c) => c.notNull()) // a project's or a freelancer's id, by kind
      .addColumn('matched_at', ts, (c) => c.notNull())
      .addColumn('digested_at', ts)
      .addPrimaryKeyConstraint('saved_search_match_pkey', ['saved_search_id', 'target_id'])
      .execute()
    await db.schema
      .createIndex('saved_search_match_waiting_idx')
      .on('saved_search_match')
      .columns(['saved_search_id', 'matched_at'])
      .where(sql.ref('digested_at'), 'is', null)
      .execute()
  },
}
