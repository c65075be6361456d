import type { Migration } from './helpers.ts'

// The facts of an admin's audit row and of a project's activity row that a person reads (a dispute
// decided: how much went back and how much was released; a refund asked: how much) were written
// into their text in English, with English money (issue 39 item 4, decision 321). They are kept as
// JSON facts beside the text, and each reader's screen words them in their language. Rows written
// before keep their text as it was. Frozen (decision 100).
export const wordedByTheReader: Migration = {
  async up(db) {
    await db.schema.alterTable('admin_audit').addColumn('params', 'text').execute()
    await db.schema.alterTable('project_activity').addColumn('params', 'text').execute()
  },
}
