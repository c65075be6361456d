import { timestampType, type Migration } from './helpers.ts'

// Favourite freelancers and shortlists of proposals (issue 41 item 4, decision 336).
// `freelancer_favourite` is a client's (or company's) saved freelancers, the people counterpart of
// `project_wishlist`. `proposal_shortlist` marks a proposal its project's client is considering,
// with the client's private note; the freelancer never reads it. Frozen (decision 100).
export const favouritesAndShortlists: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    const user = (c: any) => c.notNull().references('app_user.id').onDelete('cascade')
    await db.schema
      .createTable('freelancer_favourite')
      .addColumn('user_id', 'integer', user)
      .addColumn('freelancer_id', 'integer', user)
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('freelancer_favourite_pk', ['user_id', 'freelancer_id'])
      .execute()
    await db.schema
      .createIndex('freelancer_favourite_freelancer_idx')
      .on('freelancer_favourite')
      .columns(['freelancer_id'])
      .execute()
    await db.schema
      .createTable('proposal_shortlist')
      .addColumn('proposal_id', 'integer', (c) =>
        c.primaryKey().references('proposal.id').onDelete('cascade'),
      )
      .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
      .addColumn('client_id', 'integer', user)
      .addColumn('note', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('proposal_shortlist_project_idx')
      .on('proposal_shortlist')
      .columns(['project_id', 'created_at'])
      .execute()
  },
}
