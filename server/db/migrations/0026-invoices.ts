import { timestampType, withId, type Migration } from './helpers.ts'

// Invoices (issue 17 item 7, decisions 190–192): issued in the release's ledger transaction and
// numbered without gaps per year. The counter row of the year is incremented in that same
// transaction, so a number is taken only by a committed invoice and never twice. An invoice is a
// document: its parties' names and what it is for are copied in when it is issued and never change.
export const invoices: Migration = {
  async up(db, dialect) {
    await db.schema
      .createTable('invoice_counter')
      .addColumn('year', 'integer', (c) => c.primaryKey())
      .addColumn('last_number', 'integer', (c) => c.notNull())
      .execute()

    // kind: service (freelancer → client), platform_fee (platform → freelancer), client_fee
    // (platform → client). A null issuer or recipient user is the platform.
    await withId(db.schema.createTable('invoice'), dialect)
      .addColumn('number', 'text', (c) => c.notNull().unique())
      .addColumn('year', 'integer', (c) => c.notNull())
      .addColumn('sequence', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('issuer_user_id', 'integer', (c) => c.references('app_user.id'))
      .addColumn('issuer_name', 'text', (c) => c.notNull())
      .addColumn('recipient_user_id', 'integer', (c) => c.references('app_user.id'))
      .addColumn('recipient_name', 'text', (c) => c.notNull())
      .addColumn('contract_id', 'integer', (c) => c.notNull().references('contract.id'))
      .addColumn('installment_id', 'integer', (c) => c.notNull().references('installment.id'))
      .addColumn('transaction_id', 'integer', (c) => c.notNull().references('ledger_transaction.id'))
      .addColumn('project_title', 'text', (c) => c.notNull())
      .addColumn('installment_title', 'text', (c) => c.notNull())
      .addColumn('amount_minor', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('issued_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('invoice_year_sequence_key')
      .on('invoice')
      .columns(['year', 'sequence'])
      .unique()
      .execute()
    await db.schema
      .createIndex('invoice_issuer_idx')
      .on('invoice')
      .columns(['issuer_user_id', 'id'])
      .execute()
    await db.schema
      .createIndex('invoice_recipient_idx')
      .on('invoice')
      .columns(['recipient_user_id', 'id'])
      .execute()
    await db.schema
      .createIndex('invoice_kind_installment_key')
      .on('invoice')
      .columns(['installment_id', 'kind'])
      .unique()
      .execute()
  },
}
