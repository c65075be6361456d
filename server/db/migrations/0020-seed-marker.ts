import { timestampType, type Migration } from './helpers.ts'

// What a start loaded once and must not load again (the demo marketplace): a row per seed, with
// when a start last began it and when one finished it. The work itself commits in one transaction
// with `completed_at`; `started_at` is written before, so the next start can tell the operator that
// an earlier one stopped half-way (decision 098).
export const seedMarker: Migration = {
  async up(db, dialect) {
    await db.schema
      .createTable('seed_marker')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('started_at', timestampType(dialect), (c) => c.notNull())
      .addColumn('completed_at', timestampType(dialect))
      .execute()
  },
}
