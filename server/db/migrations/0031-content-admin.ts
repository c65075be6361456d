import { timestampType, type Migration } from './helpers.ts'

// The admin area's content screens (issue 18 item 3, decision 240). A partner logo may link to the
// partner's site. `content_admin_owned` names the seeded rows (by kind and slug, logos by name) an
// admin has changed or deleted: the start's seed, which keeps seeded texts in step with the code,
// leaves those alone, so an admin's edit is not undone nor a deleted row brought back at restart.
export const contentAdmin: Migration = {
  async up(db, dialect) {
    await db.schema.alterTable('partner_logo').addColumn('link_url', 'text').execute()
    await db.schema
      .createTable('content_admin_owned')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('at', timestampType(dialect), (c) => c.notNull())
      .addPrimaryKeyConstraint('content_admin_owned_pk', ['kind', 'key'])
      .execute()
  },
}
