import { timestampType, type Migration } from './helpers.ts'

// Review before publication (issue 41 item 6, decision 339). `project_review_rule` holds the one
// rule admins set (a single row, id 1; no row means "none"): its kind and, for "categories", the
// category ids as a JSON array. A project waiting for review keeps when it was sent
// (`review_submitted_at`, the queue's order) and the admin's reason when it was returned
// (`review_reason`). Frozen (decision 100).
export const projectReview: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await db.schema
      .createTable('project_review_rule')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('category_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('updated_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute()
    await db.schema.alterTable('project').addColumn('review_submitted_at', ts).execute()
    await db.schema.alterTable('project').addColumn('review_reason', 'text').execute()
    await db.schema
      .createIndex('project_review_queue_idx')
      .on('project')
      .columns(['status', 'review_submitted_at'])
      .execute()
  },
}
