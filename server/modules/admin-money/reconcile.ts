import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import type { Payouts } from '../payments/payouts.ts'
import type { Refunds } from '../payments/refunds.ts'

/**
 * "Reconcile now": every payout and refund stuck in flight is asked about at its gateway and
 * settled once (decision 250); each one settled is audited in its settling transaction, and the
 * action with the admin's reason in its own. One the gateway cannot answer stays for the next try.
 */
export async function reconcileStuck(
  { db, payouts, refunds }: { db: DB; payouts: Payouts; refunds: Pick<Refunds, 'stuck' | 'resend'> },
  caller: Caller,
  reason: string,
  since: string,
) {
  const audit =
    (objectType: 'payout' | 'refund_request', objectId: number, toState: string) =>
    (trx: Parameters<typeof recordAdminAction>[0]) =>
      recordAdminAction(trx, {
        actorId: caller.userId,
        action: 'reconcile',
        objectType,
        objectId,
        fromState: objectType === 'payout' ? 'requested' : 'pending',
        toState,
        reason,
      })
  let payoutsSettled = 0
  let refundsSettled = 0
  let left = 0
  for (const p of await payouts.stuck(since)) {
    const settled = await payouts
      .reconcile(p, (trx, status) => audit('payout', p.id, status)(trx))
      .catch(() => null)
    if (settled) payoutsSettled++
    else left++
  }
  for (const r of await refunds.stuck(since)) {
    const settled = await refunds
      .resend(r.id, (trx, status) => audit('refund_request', r.id, status)(trx))
      .catch(() => false)
    if (settled) refundsSettled++
    else left++
  }
  await recordAdminAction(db, {
    actorId: caller.userId,
    action: 'reconcile',
    objectType: 'payments',
    objectId: null,
    reason,
    params: { payoutsSettled, refundsSettled, left },
  })
  return { payoutsSettled, refundsSettled, left }
}
