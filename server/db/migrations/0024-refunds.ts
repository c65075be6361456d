import { timestampType, withId, type Migration } from './helpers.ts'

// Refund requests (issue 17 item 5, decisions 180–183): a client asks for part or all of an
// installment's held money back; the freelancer accepts or declines; a decline or no answer may
// become a dispute an admin decides. `active_installment_id` is the installment's id while the
// request is open or disputed and null otherwise: its unique index allows one such request per
// installment whatever races. `installment.refunded_minor` is the part of the installment's price
// already given back (a partial refund lowers what is released).
export const refunds: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('refund_request'), dialect)
      .addColumn('installment_id', 'integer', (c) => c.notNull().references('installment.id'))
      .addColumn('active_installment_id', 'integer', (c) => c.unique())
      .addColumn('contract_id', 'integer', (c) => c.notNull().references('contract.id'))
      .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id'))
      .addColumn('payment_id', 'integer', (c) => c.notNull().references('payment.id'))
      .addColumn('client_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('freelancer_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('status', 'text', (c) => c.notNull()) // open | accepted | declined | disputed | decided
      .addColumn('amount_minor', 'bigint', (c) => c.notNull()) // of the installment's price
      .addColumn('fee_minor', 'bigint', (c) => c.notNull().defaultTo(0)) // the client's fee returned with it (set when money moves)
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('decline_reason', 'text')
      .addColumn('respond_by', timestampType(dialect), (c) => c.notNull())
      .addColumn('gateway_status', 'text') // pending | succeeded | failed, once money goes back
      .addColumn('gateway_ref', 'text')
      .addColumn('decided_by', 'integer', (c) => c.references('app_user.id'))
      .addColumn('decision_note', 'text')
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .addColumn('updated_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('refund_request_installment_idx')
      .on('refund_request')
      .columns(['installment_id'])
      .execute()
    await db.schema
      .createIndex('refund_request_project_idx')
      .on('refund_request')
      .columns(['project_id'])
      .execute()
    await db.schema
      .alterTable('installment')
      .addColumn('refunded_minor', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute()
    // The auto-release sweep looks for submissions left unanswered.
    await db.schema
      .createIndex('installment_status_updated_idx')
      .on('installment')
      .columns(['status', 'updated_at'])
      .execute()
  },
}
