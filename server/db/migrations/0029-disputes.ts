import type { Migration } from './helpers.ts'

// Disputes over money raised by a complaint (issue 18 item 2, decision 230). A complaint about a
// funded installment holds its money through the same row a disputed refund request uses (decision
// 182): a refund_request in state `disputed`, now naming the complaint that opened it, so the admin's
// decision on the complaint finds its dispute and a second complaint cannot open another.
export const disputes: Migration = {
  async up(db) {
    await db.schema
      .alterTable('refund_request')
      .addColumn('complaint_id', 'integer', (c) => c.references('complaint.id'))
      .execute()
    await db.schema
      .createIndex('refund_request_complaint_idx')
      .on('refund_request')
      .column('complaint_id')
      .execute()
  },
}
