import { timestampType, withId, type Migration } from './helpers.ts'

// Direct offers (issue 41 item 2, decision 342). A client offers one freelancer terms without a
// public posting: the offer's project is invite-only and holds the work and the price (its
// installment plan, or its hourly rate and weekly hours); `direct_offer` holds who offers whom, the
// client's message, until when it may be accepted and its answer. One offer per project.
// `proposal_id` names the proposal the acceptance wrote, whose hire made the contract. Frozen
// (decision 100).
export const directOffers: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await withId(db.schema.createTable('direct_offer'), dialect)
      .addColumn('project_id', 'integer', (c) =>
        c.notNull().unique().references('project.id').onDelete('cascade'),
      )
      .addColumn('client_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('freelancer_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('message', 'text')
      .addColumn('status', 'text', (c) => c.notNull()) // pending | accepted | declined | withdrawn | expired
      .addColumn('decline_reason', 'text')
      .addColumn('proposal_id', 'integer', (c) => c.references('proposal.id').onDelete('set null'))
      .addColumn('expires_at', ts, (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('decided_at', ts)
      .execute()
    await db.schema
      .createIndex('direct_offer_freelancer_idx')
      .on('direct_offer')
      .columns(['freelancer_id', 'id'])
      .execute()
    await db.schema
      .createIndex('direct_offer_client_idx')
      .on('direct_offer')
      .columns(['client_id', 'id'])
      .execute()
  },
}
