import { timestampType, withId, type Migration } from './helpers.ts'

// Weekly timesheets of hourly contracts (issue 40 item 3, decision 324). A week (Monday to Sunday)
// of a contract holds the freelancer's entries in quarter hours; it is open, then submitted, then
// approved (by the client or, unanswered, by the system) or disputed with a reason and submitted
// again. An approved week becomes one installment of the contract (`installment_id`, unique: a week
// is charged once). A client may save the card of a checkout with the gateway (`saved_payment_method`,
// one per client and gateway: the gateway's references only, never a card's number), and an approved
// week is then charged to it without them. Frozen (decision 100).
export const timesheets: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('timesheet_week'), dialect)
      .addColumn('contract_id', 'integer', (c) => c.notNull().references('contract.id').onDelete('cascade'))
      .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id'))
      .addColumn('week_start', 'text', (c) => c.notNull()) // YYYY-MM-DD, a Monday
      .addColumn('status', 'text', (c) => c.notNull()) // open | submitted | disputed | approved
      .addColumn('quarters', 'integer', (c) => c.notNull().defaultTo(0)) // quarter hours when submitted
      .addColumn('submitted_at', timestampType(dialect))
      .addColumn('decided_at', timestampType(dialect))
      .addColumn('decided_by', 'integer', (c) => c.references('app_user.id')) // null with decided_at: the system
      .addColumn('dispute_reason', 'text')
      .addColumn('amount_minor', 'bigint') // hours × rate, fixed when approved
      .addColumn('installment_id', 'integer', (c) => c.references('installment.id').unique())
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .addColumn('updated_at', timestampType(dialect), (c) => c.notNull())
      .addUniqueConstraint('timesheet_week_start_uq', ['contract_id', 'week_start'])
      .execute()
    await db.schema
      .createIndex('timesheet_week_due_ix')
      .on('timesheet_week')
      .columns(['status', 'submitted_at'])
      .execute()
    await withId(db.schema.createTable('timesheet_entry'), dialect)
      .addColumn('week_id', 'integer', (c) => c.notNull().references('timesheet_week.id').onDelete('cascade'))
      .addColumn('work_date', 'text', (c) => c.notNull()) // YYYY-MM-DD within the week
      .addColumn('quarters', 'integer', (c) => c.notNull()) // 6 = 1.5 hours
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('deliverable_id', 'integer', (c) => c.references('deliverable.id'))
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .addColumn('updated_at', timestampType(dialect), (c) => c.notNull())
      .execute()
    await db.schema.createIndex('timesheet_entry_week_ix').on('timesheet_entry').column('week_id').execute()
    await withId(db.schema.createTable('saved_payment_method'), dialect)
      .addColumn('client_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('gateway', 'text', (c) => c.notNull())
      .addColumn('customer_ref', 'text') // the gateway's customer (Stripe), null for the sandbox
      .addColumn('method_ref', 'text', (c) => c.notNull()) // the gateway's payment method
      .addColumn('label', 'text', (c) => c.notNull()) // what the client sees: "card ending 4242"
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .addUniqueConstraint('saved_payment_method_uq', ['client_id', 'gateway'])
      .execute()
  },
}
