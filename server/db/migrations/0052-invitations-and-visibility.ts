import { timestampType, withId, type Migration } from './helpers.ts'

// Invitations and private projects (issue 41 items 2 and 3, decision 335). `project.visibility` is
// `public` (everyone), `signed_in` (signed-in people only) or `invited` (its client, the freelancers
// it invited, and admins). `project_invitation` is a client's invitation of a freelancer to one of
// their open projects, once per freelancer and project, decided once (accepted or declined with a
// reason). Frozen (decision 100).
export const invitationsAndVisibility: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await db.schema
      .alterTable('project')
      .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('public'))
      .execute()
    await withId(db.schema.createTable('project_invitation'), dialect)
      .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
      .addColumn('freelancer_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('client_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull()) // pending | accepted | declined
      .addColumn('decline_reason', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('decided_at', ts)
      .addUniqueConstraint('project_invitation_once', ['project_id', 'freelancer_id'])
      .execute()
    await db.schema
      .createIndex('project_invitation_freelancer_idx')
      .on('project_invitation')
      .columns(['freelancer_id', 'id'])
      .execute()
  },
}
