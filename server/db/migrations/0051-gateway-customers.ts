import { timestampType, withId, type Migration } from './helpers.ts'

// A client's customer at a gateway that keeps cards under one (Stripe), created the first time a
// checkout of an hourly contract saves the card and reused afterwards, so every card a client saves
// belongs to the same customer and can be charged off-session (decision 334). Frozen (decision 100).
export const gatewayCustomers: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('gateway_customer'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('gateway', 'text', (c) => c.notNull())
      .addColumn('customer_ref', 'text', (c) => c.notNull())
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .addUniqueConstraint('gateway_customer_uq', ['client_id', 'gateway'])
      .execute()
  },
}
