import { timestampType, withId, type Migration } from './helpers.ts'

// Hiring with Workneer's help (issue 41 item 5, decision 338). `hiring_request` is a client's (or
// company's) request that support find the freelancer: the need, a budget (one amount, or a range
// when max differs from min, in minor units of one currency), a deadline day and optionally one of
// their projects. `hiring_pick` is a freelancer support proposes for it, with support's note, in
// the order given. Frozen (decision 100).
export const hiringRequests: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await withId(db.schema.createTable('hiring_request'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('project_id', 'integer', (c) => c.references('project.id').onDelete('set null'))
      .addColumn('need', 'text', (c) => c.notNull())
      .addColumn('budget_min_minor', 'integer', (c) => c.notNull())
      .addColumn('budget_max_minor', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('deadline', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('assignee_id', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('hiring_request_client_idx')
      .on('hiring_request')
      .columns(['client_id', 'state'])
      .execute()
    await db.schema
      .createIndex('hiring_request_state_idx')
      .on('hiring_request')
      .columns(['state', 'created_at'])
      .execute()
    await db.schema
      .createTable('hiring_pick')
      .addColumn('request_id', 'integer', (c) =>
        c.notNull().references('hiring_request.id').onDelete('cascade'),
      )
      .addColumn('freelancer_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('note', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('hiring_pick_pk', ['request_id', 'freelancer_id'])
      .execute()
  },
}
