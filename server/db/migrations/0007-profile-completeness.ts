import type { Migration } from './helpers.ts'

// Profile completeness (percent) kept on each profile row, so identity can fold it into
// wengazPercentage with one cheap read on every token and page (docs/decisions/011-profiles.md).
export const profileCompleteness: Migration = {
  async up(db) {
    await db.schema
      .alterTable('freelancer_profile')
      .addColumn('completeness', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .alterTable('client_profile')
      .addColumn('completeness', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
  },
}
