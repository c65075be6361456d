import { timestampType, withId, type Migration } from './helpers.ts'

// The deliverables register of a contract (issue 40 item 1, decision 318): the agreed deliverables,
// each issue of one at a revision with its files, the client's answer to an issue, and the
// numbered transmittal each issue event produces. Append-only: a row is written once and never
// updated or deleted, so the register is the contract's history. `deliverable_register` holds the
// contract's revision scheme, fixed with its first deliverable. Frozen (decision 100).
export const deliverablesRegister: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await db.schema
      .createTable('deliverable_register')
      .addColumn('contract_id', 'integer', (c) => c.primaryKey().references('contract.id'))
      .addColumn('scheme', 'text', (c) => c.notNull()) // stage (P01…, then C01…) | letter (A, B, C…)
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await withId(db.schema.createTable('deliverable'), dialect)
      .addColumn('contract_id', 'integer', (c) => c.notNull().references('contract.id'))
      .addColumn('installment_id', 'integer', (c) => c.notNull().references('installment.id'))
      .addColumn('number', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('discipline', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addUniqueConstraint('deliverable_contract_number_key', ['contract_id', 'number'])
      .execute()
    // The register reads a contract's rows in order; an installment's approval reads its own.
    await db.schema
      .createIndex('deliverable_contract_position_idx')
      .on('deliverable')
      .columns(['contract_id', 'position'])
      .execute()
    await db.schema
      .createIndex('deliverable_installment_idx')
      .on('deliverable')
      .columns(['installment_id'])
      .execute()
    await withId(db.schema.createTable('transmittal'), dialect)
      .addColumn('contract_id', 'integer', (c) => c.notNull().references('contract.id'))
      .addColumn('number', 'integer', (c) => c.notNull()) // 1, 2, 3… within the contract
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('recipient_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addUniqueConstraint('transmittal_contract_number_key', ['contract_id', 'number'])
      .execute()
    await withId(db.schema.createTable('deliverable_issue'), dialect)
      .addColumn('deliverable_id', 'integer', (c) => c.notNull().references('deliverable.id'))
      .addColumn('contract_id', 'integer', (c) => c.notNull().references('contract.id'))
      .addColumn('transmittal_id', 'integer', (c) => c.notNull().references('transmittal.id'))
      .addColumn('sequence', 'integer', (c) => c.notNull()) // 1, 2, 3… within the deliverable
      .addColumn('revision', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull()) // for_information | for_comment | for_approval | for_construction | as_built
      .addColumn('note', 'text', (c) => c.notNull())
      .addColumn('issued_by', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('issued_at', ts, (c) => c.notNull())
      // Two issues racing for the same next revision: the second fails here.
      .addUniqueConstraint('deliverable_issue_revision_key', ['deliverable_id', 'revision'])
      .addUniqueConstraint('deliverable_issue_sequence_key', ['deliverable_id', 'sequence'])
      .execute()
    await db.schema
      .createIndex('deliverable_issue_contract_idx')
      .on('deliverable_issue')
      .columns(['contract_id', 'deliverable_id', 'sequence'])
      .execute()
    await db.schema
      .createIndex('deliverable_issue_transmittal_idx')
      .on('deliverable_issue')
      .columns(['transmittal_id'])
      .execute()
    await db.schema
      .createTable('deliverable_issue_file')
      .addColumn('issue_id', 'integer', (c) => c.notNull().references('deliverable_issue.id'))
      .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_file.id'))
      .addPrimaryKeyConstraint('deliverable_issue_file_pkey', ['issue_id', 'file_id'])
      .execute()
    await db.schema
      .createIndex('deliverable_issue_file_file_idx')
      .on('deliverable_issue_file')
      .columns(['file_id'])
      .execute()
    await withId(db.schema.createTable('deliverable_response'), dialect)
      // One answer per issue, whatever races: the unique key refuses the second.
      .addColumn('issue_id', 'integer', (c) => c.notNull().unique().references('deliverable_issue.id'))
      .addColumn('contract_id', 'integer', (c) => c.notNull().references('contract.id'))
      .addColumn('outcome', 'text', (c) => c.notNull()) // approved | approved_with_comments | revise_and_resubmit
      .addColumn('comment', 'text', (c) => c.notNull())
      .addColumn('responded_by', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('responded_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('deliverable_response_contract_idx')
      .on('deliverable_response')
      .columns(['contract_id'])
      .execute()
  },
}
