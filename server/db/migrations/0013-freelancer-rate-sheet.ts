import type { Migration } from './helpers.ts'

// A freelancer's schedule of rates: one spreadsheet (xlsx or csv, docs/product.md §5) kept with the profile
// and shown on the public profile (decision 014). The file row goes with the profile's owner;
// replacing or removing the sheet releases the old file (decision 012).
export const freelancerRateSheet: Migration = {
  async up(db) {
    await db.schema
      .alterTable('freelancer_profile')
      .addColumn('rate_sheet_file_id', 'integer', (c) => c.references('stored_file.id').onDelete('set null'))
      .execute()
  },
}
