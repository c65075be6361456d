import { timestampType, withId, type Migration } from './helpers.ts'

// Payouts (issue 17 item 6, decisions 185–189): a freelancer withdraws available money to one of
// their payment methods. The money moves in the ledger (available → payout_in_flight → gateway
// clearing, or back to available when the payout fails); this row is the request and its outcome.
// The destination is kept masked, as it was when asked (the method may be edited or removed later).
export const payouts: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('payout'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('payment_method_id', 'integer') // no reference: a removed method keeps its payouts
      .addColumn('destination_kind', 'text', (c) => c.notNull()) // bank | paypal
      .addColumn('destination_masked', 'text', (c) => c.notNull())
      .addColumn('gateway', 'text', (c) => c.notNull())
      .addColumn('gateway_ref', 'text')
      .addColumn('status', 'text', (c) => c.notNull()) // requested | paid | failed
      .addColumn('amount_minor', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('failure', 'text')
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .addColumn('updated_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema.createIndex('payout_user_idx').on('payout').columns(['user_id', 'id']).execute()
  },
}
