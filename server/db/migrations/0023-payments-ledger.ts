import { timestampType, withId, type Migration } from './helpers.ts'

// Payments (issue 17, decisions 170–175): a double-entry ledger, the payments a client starts at a
// gateway, and the gateway events already applied. Amounts are integer minor units with their
// currency; ledger entries are signed (debit positive, credit negative) and every transaction's
// entries add up to zero per currency. Rows of ledger_transaction and ledger_entry are appended,
// never updated or deleted: a correction is a reversing transaction.
export const paymentsLedger: Migration = {
  async up(db, dialect) {
    // One account per kind, owner and currency: client_held, freelancer_available (owner 'user:<id>'),
    // platform_fees (owner 'platform'), gateway_clearing (owner the gateway's name).
    await withId(db.schema.createTable('ledger_account'), dialect)
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.references('app_user.id'))
      .addColumn('currency', 'text', (c) => c.notNull())
      // The sum of the account's entries, kept in the posting's transaction: it takes the row lock
      // that serialises postings to the account and makes the below-zero check one read.
      .addColumn('balance_minor', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('ledger_account_key')
      .on('ledger_account')
      .columns(['kind', 'owner', 'currency'])
      .unique()
      .execute()
    await db.schema.createIndex('ledger_account_user_idx').on('ledger_account').columns(['user_id']).execute()

    // `ref` names the movement (capture:<payment>, release:<installment>): unique, so a movement is
    // posted once however many times it is asked for.
    await withId(db.schema.createTable('ledger_transaction'), dialect)
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('ref', 'text', (c) => c.notNull().unique())
      .addColumn('contract_id', 'integer')
      .addColumn('installment_id', 'integer')
      .addColumn('payment_id', 'integer')
      .addColumn('reverses_id', 'integer', (c) => c.references('ledger_transaction.id'))
      .addColumn('memo', 'text')
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('ledger_transaction_contract_idx')
      .on('ledger_transaction')
      .columns(['contract_id'])
      .execute()

    await withId(db.schema.createTable('ledger_entry'), dialect)
      .addColumn('transaction_id', 'integer', (c) => c.notNull().references('ledger_transaction.id'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('ledger_account.id'))
      .addColumn('amount_minor', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('ledger_entry_account_idx')
      .on('ledger_entry')
      .columns(['account_id', 'id'])
      .execute()
    await db.schema
      .createIndex('ledger_entry_transaction_idx')
      .on('ledger_entry')
      .columns(['transaction_id'])
      .execute()

    // A payment: what a client pays at a gateway for installments of one contract. `token` opens the
    // hosted checkout; `amount`, `fee` and `total` are fixed when it is created, from the contract.
    await withId(db.schema.createTable('payment'), dialect)
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('client_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('contract_id', 'integer', (c) => c.notNull().references('contract.id'))
      .addColumn('gateway', 'text', (c) => c.notNull())
      .addColumn('gateway_ref', 'text')
      .addColumn('status', 'text', (c) => c.notNull()) // open | requires_action | failed | succeeded | cancelled
      .addColumn('amount_minor', 'bigint', (c) => c.notNull())
      .addColumn('fee_minor', 'bigint', (c) => c.notNull())
      .addColumn('total_minor', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('failure', 'text')
      .addColumn('applied', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .addColumn('updated_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema.createIndex('payment_contract_idx').on('payment').columns(['contract_id']).execute()

    await db.schema
      .createTable('payment_installment')
      .addColumn('payment_id', 'integer', (c) => c.notNull().references('payment.id'))
      .addColumn('installment_id', 'integer', (c) => c.notNull().references('installment.id'))
      .addColumn('amount_minor', 'bigint', (c) => c.notNull())
      .addColumn('fee_minor', 'bigint', (c) => c.notNull())
      .addColumn('applied', 'integer', (c) => c.notNull().defaultTo(0)) // 1: this payment funded the installment
      .addPrimaryKeyConstraint('payment_installment_pk', ['payment_id', 'installment_id'])
      .execute()
    await db.schema
      .createIndex('payment_installment_installment_idx')
      .on('payment_installment')
      .columns(['installment_id'])
      .execute()

    // Gateway events already applied: inserted in the transaction of their effect, so a repeat is seen.
    await db.schema
      .createTable('gateway_event')
      .addColumn('gateway', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('payment_id', 'integer')
      .addColumn('received_at', timestampType(dialect), (c) => c.notNull())
      .addPrimaryKeyConstraint('gateway_event_pk', ['gateway', 'event_id'])
      .execute()
  },
}
