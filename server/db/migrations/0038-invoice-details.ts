import { timestampType, type Migration } from './helpers.ts'

// Invoice details (issue 39 item 5, decision 311): what a person puts on the invoices issued by or
// to them, entered once in account settings, and the copy of them each invoice keeps. An invoice is
// a document: the parties' details, the platform's legal details and the tax line are copied in
// when it is issued (JSON text, the same on both databases) and never change with a later edit.
// Invoices issued before keep null there and print as they did. Frozen (decision 100).
export const invoiceDetails: Migration = {
  async up(db, dialect) {
    await db.schema
      .createTable('invoice_details')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('app_user.id'))
      .addColumn('legal_name', 'text', (c) => c.notNull())
      .addColumn('address_line1', 'text', (c) => c.notNull())
      .addColumn('address_line2', 'text', (c) => c.notNull())
      .addColumn('postcode', 'text', (c) => c.notNull())
      .addColumn('city', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('vat_id', 'text', (c) => c.notNull())
      // A freelancer's VAT rate in basis points, included in their prices; null: they charge none.
      .addColumn('vat_rate_bps', 'integer')
      .addColumn('updated_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema.alterTable('invoice').addColumn('issuer_details', 'text').execute()
    await db.schema.alterTable('invoice').addColumn('recipient_details', 'text').execute()
    await db.schema.alterTable('invoice').addColumn('platform_details', 'text').execute()
    await db.schema.alterTable('invoice').addColumn('tax_rate_bps', 'integer').execute()
    await db.schema.alterTable('invoice').addColumn('tax_minor', 'bigint').execute()
  },
}
