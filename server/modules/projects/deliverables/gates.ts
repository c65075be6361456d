import type { Trx } from '../transition.ts'
import { approving, type Outcome } from './rules.ts'

// What the register says about an installment's money (decision 318): an installment with
// deliverables is submitted by issuing them, and the client may approve (and so release) it only
// when the latest issue of each of them is approved, with or without comments.

/** The installment's deliverables with the outcome of their latest issue (null: unanswered or never issued). */
async function latestOutcomes(trx: Trx, installmentId: number) {
  const rows = await trx
    .selectFrom('deliverable as d')
    .leftJoin('deliverable_issue as i', (j) =>
      j.onRef('i.deliverable_id', '=', 'd.id').on((eb) =>
        eb(
          'i.sequence',
          '=',
          eb
            .selectFrom('deliverable_issue as x')
            .select((x) => x.fn.max('x.sequence').as('m'))
            .whereRef('x.deliverable_id', '=', 'd.id'),
        ),
      ),
    )
    .leftJoin('deliverable_response as r', 'r.issue_id', 'i.id')
    .select(['d.number', 'i.revision', 'r.outcome'])
    .where('d.installment_id', '=', installmentId)
    .execute()
  return rows
}

/** Whether the installment has deliverables: its work is then submitted by issuing them. */
export async function hasDeliverables(trx: Trx, installmentId: number) {
  const row = await trx
    .selectFrom('deliverable')
    .select('id')
    .where('installment_id', '=', installmentId)
    .limit(1)
    .executeTakeFirst()
  return !!row
}

/** The numbers of the installment's deliverables that were issued at least once (such an installment is not removed). */
export async function issuedDeliverables(trx: Trx, installmentId: number) {
  const rows = await trx
    .selectFrom('deliverable as d')
    .select('d.number')
    .where('d.installment_id', '=', installmentId)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('deliverable_issue as i').select('i.id').whereRef('i.deliverable_id', '=', 'd.id'),
      ),
    )
    .orderBy('d.position')
    .execute()
  return rows.map((r) => r.number)
}

/** Why the installment cannot be approved yet (the deliverables not approved, by number), or null. */
export async function deliverablesPending(trx: Trx, installmentId: number) {
  const rows = await latestOutcomes(trx, installmentId)
  const waiting = rows.filter((r) => !r.outcome || !approving.includes(r.outcome as Outcome))
  if (!waiting.length) return null
  return `Every deliverable must be approved first; not yet: ${waiting.map((r) => r.number).join(', ')}`
}
