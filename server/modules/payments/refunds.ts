import type { Caller } from '#server/api/handler.ts'
import type { Trx } from './ledger.ts'
import type { GatewayEvent } from './gateways/gateway.ts'
import { applyRefundEvent, sendBack } from './refund-money.ts'
import { acceptRefund, declineRefund, disputeRefund, listRefunds, requestRefund } from './refund-requests.ts'
import { decideComplaint, disputeOf, holdable, holdForComplaint } from './refund-disputes.ts'
import { DAY, type RefundDeps, type Settled } from './refund-rows.ts'

export { refundToken, type RefundStatus } from './refund-rows.ts'

// Refund requests (issue 17 item 5, decisions 180–182). The client asks for part or all of a
// funded, not yet released installment's price back, with a reason; the freelancer accepts or
// declines (with a reason) within REFUND_RESPONSE_DAYS. Accepting moves the money in one balanced
// posting (client held → the gateway's clearing: the platform no longer holds it, the gateway owes
// it back to the card) and asks the gateway that took the payment to refund it, after commit. A
// decline, or no answer in time, lets the client open a dispute: the installment is frozen until
// an admin decides on the dispute's ticket (decideComplaint) how much goes back and how much is released.
//
// Amounts: `amount` is of the installment's price; the client's fee held with it goes back in
// proportion (fees.ts feeLeft), so a full refund returns everything the client paid for it.
// The use cases live in refund-requests.ts, refund-disputes.ts and refund-money.ts.

/**
 * The periodic job (decision 183): submissions left without approval or a request for changes
 * for AUTO_RELEASE_DAYS are approved and released; refunds whose gateway was never asked (a
 * crash after commit) are sent again. Safe on many instances: each release locks its rows and
 * checks the state again (projects.autoRelease), and the release's ledger ref posts once.
 */
async function sweep(deps: RefundDeps, now = new Date()) {
  const { db, work, autoReleaseDays } = deps
  const cutoff = new Date(now.getTime() - autoReleaseDays * DAY).toISOString()
  const due = await db
    .selectFrom('installment as i')
    .innerJoin('contract as c', 'c.id', 'i.contract_id')
    .leftJoin('refund_request as r', 'r.active_installment_id', 'i.id')
    .select('i.id')
    .where('i.status', '=', 'submitted')
    .where('i.updated_at', '<', cutoff)
    .where('c.status', '=', 'active')
    .where('r.id', 'is', null)
    .orderBy('i.id')
    .limit(500)
    .execute()
  let released = 0
  for (const { id } of due) if (await work.autoRelease(id, cutoff).catch(() => false)) released++
  const stale = new Date(now.getTime() - 10 * 60_000).toISOString()
  const unsent = await db
    .selectFrom('refund_request')
    .select('id')
    .where('gateway_status', '=', 'pending')
    .where('gateway_ref', 'is', null)
    .where('updated_at', '<', stale)
    .limit(100)
    .execute()
  for (const { id } of unsent) await sendBack(deps, id).catch(() => undefined)
  return { released }
}

/** Refunds sent back but not confirmed since before `olderThan` (reconciliation asks again with the same refund id). */
const stuck = ({ db }: RefundDeps, olderThan: string) =>
  db
    .selectFrom('refund_request')
    .select(['id', 'amount_minor', 'fee_minor', 'currency', 'updated_at'])
    .where('gateway_status', '=', 'pending')
    .where('updated_at', '<', olderThan)
    .orderBy('id')
    .limit(200)
    .execute()

export function createRefunds(deps: RefundDeps) {
  return {
    request: (caller: Caller, input: Parameters<typeof requestRefund>[2]) =>
      requestRefund(deps, caller, input),
    accept: (caller: Caller, requestId: number) => acceptRefund(deps, caller, requestId),
    decline: (caller: Caller, requestId: number, reason: string) =>
      declineRefund(deps, caller, requestId, reason),
    dispute: (caller: Caller, requestId: number) => disputeRefund(deps, caller, requestId),
    holdForComplaint: (trx: Trx, installmentId: number, complaintId: number, title: string) =>
      holdForComplaint(deps, trx, installmentId, complaintId, title),
    disputeOf: (complaintId: number) => disputeOf(deps.db, complaintId),
    holdable: (contractId: number) => holdable(deps.db, contractId),
    decideComplaint: (
      complaintId: number,
      outcome: 'release' | 'refund' | 'split',
      refundMinor: number | undefined,
      adminId: number,
      reason: string,
      within: Parameters<typeof decideComplaint>[6],
    ) => decideComplaint(deps, complaintId, outcome, refundMinor, adminId, reason, within),
    list: (caller: Caller, projectId: number) => listRefunds(deps, caller, projectId),
    applyEvent: (trx: Trx, gateway: string, event: GatewayEvent) =>
      applyRefundEvent(trx, deps.dialect, gateway, event),
    sweep: (now?: Date) => sweep(deps, now),
    stuck: (olderThan: string) => stuck(deps, olderThan),
    resend: (requestId: number, settled?: Settled) => sendBack(deps, requestId, settled),
  }
}

export type Refunds = ReturnType<typeof createRefunds>
