import { timestampType, withId, type Migration } from './helpers.ts'

// Change orders (issue 40 item 2, decision 319): either party of an active contract proposes a
// change (a description, a reason and its effects: an installment added, an unreleased one changed
// or reduced, the deadline moved); the other party accepts or rejects it with a reason, or the
// proposer withdraws it while it is pending. A change order is decided once. Its effects are rows
// that keep what they replaced (`old_*`, written when it is accepted) and the value of the contract
// before and after, so the contract's history is never overwritten. Frozen (decision 100).
export const changeOrders: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('change_order'), dialect)
      .addColumn('contract_id', 'integer', (c) => c.notNull().references('contract.id').onDelete('cascade'))
      .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id'))
      .addColumn('number', 'integer', (c) => c.notNull()) // 1, 2, 3… per contract
      .addColumn('proposer_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull()) // proposed | accepted | rejected | withdrawn
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('value_before_minor', 'bigint') // the contract's value when it was accepted
      .addColumn('value_after_minor', 'bigint')
      .addColumn('decided_by', 'integer', (c) => c.references('app_user.id'))
      .addColumn('decided_at', timestampType(dialect))
      .addColumn('rejection_reason', 'text')
      .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
      .addColumn('updated_at', timestampType(dialect), (c) => c.notNull())
      .addUniqueConstraint('change_order_number_uq', ['contract_id', 'number'])
      .execute()
    await withId(db.schema.createTable('change_order_effect'), dialect)
      .addColumn('change_order_id', 'integer', (c) =>
        c.notNull().references('change_order.id').onDelete('cascade'),
      )
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull()) // add | change | reduce | deadline
      // The installment changed or reduced; for an added one, the installment it became once accepted.
      .addColumn('installment_id', 'integer', (c) => c.references('installment.id'))
      .addColumn('title', 'text')
      .addColumn('amount_minor', 'bigint') // add, change: the amount; reduce: by how much
      .addColumn('due_date', 'text') // add, change: the due date; deadline: the new deadline
      .addColumn('old_title', 'text')
      .addColumn('old_amount_minor', 'bigint')
      .addColumn('old_due_date', 'text')
      .addColumn('refunded_minor', 'bigint') // of held money given back to the client when accepted
      .addUniqueConstraint('change_order_effect_position_uq', ['change_order_id', 'position'])
      .execute()
  },
}
