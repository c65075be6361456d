import type { Migration } from './helpers.ts'

// Hourly contracts (issue 40 item 3): an hourly project states a range of rates (`budget_minor`
// stays the highest, `budget_min_minor` is the lowest) and the hours a week it expects; an hourly
// proposal bids a rate (`bid_minor`) for a number of hours a week; the contract it becomes is billed
// by the hour at that rate, within that weekly limit. Fixed-price rows keep these columns empty.
// Frozen (decision 100).
export const hourlyTerms: Migration = {
  async up(db) {
    await db.schema.alterTable('project').addColumn('budget_min_minor', 'integer').execute()
    await db.schema.alterTable('project').addColumn('hours_per_week', 'integer').execute()
    await db.schema.alterTable('proposal').addColumn('weekly_hours', 'integer').execute()
    await db.schema.alterTable('proposal_revision').addColumn('weekly_hours', 'integer').execute()
    await db.schema
      .alterTable('contract')
      .addColumn('billing', 'text', (c) => c.notNull().defaultTo('fixed')) // fixed | hourly
      .execute()
    await db.schema.alterTable('contract').addColumn('hourly_rate_minor', 'integer').execute()
    await db.schema.alterTable('contract').addColumn('weekly_limit_hours', 'integer').execute()
  },
}
