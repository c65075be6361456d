import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import type { Trx } from './ledger.ts'
import type { GatewayEvent, GatewayMoneyResult } from './gateways/gateway.ts'
import type { PayoutInput } from './contract.ts'
import type { PayoutStatus } from './states.ts'
import type { PayoutDeps, PayoutRow } from './payout-rows.ts'
import { availableMoney, listPayouts, requestPayout } from './payout-requests.ts'
import { applyPayoutEvent, settlePayout } from './payout-settlement.ts'
import { reconcilePayout, stuckPayouts, sweepPayouts } from './payout-reconcile.ts'

export { PAYMENTS_NOTIFY_TOPIC, type PayoutRow } from './payout-rows.ts'

// Payouts (issue 17 item 6, decisions 185–187): a freelancer withdraws available money to one of
// their active payment methods. Asking moves the amount from available to payout_in_flight in one
// balanced transaction, under the available account's lock (the running balance is read and
// spent in the same transaction, so two payouts at once can never overdraw). The gateway then
// pays (in flight → gateway clearing) or refuses (a reversing transaction returns the money to
// available). The sandbox answers at once; a gateway that answers later sends payout.succeeded or
// payout.failed events, applied through the same settle step, once.
export function createPayouts(deps: PayoutDeps) {
  type Settled = (trx: Trx, status: PayoutStatus) => Promise<void>
  return {
    list: (caller: Caller) => listPayouts(deps, caller),
    request: (caller: Caller, input: PayoutInput) => requestPayout(deps, caller, input),
    settle: (trx: Trx, payoutId: number, result: GatewayMoneyResult, settled?: Settled) =>
      settlePayout(trx, deps.dialect, payoutId, result, settled),
    applyEvent: (trx: Trx, gatewayName: string, event: GatewayEvent) =>
      applyPayoutEvent(trx, deps.dialect, gatewayName, event),
    available: (executor: DB | Trx, userId: number) => availableMoney(executor, userId),
    stuck: (olderThan: string) => stuckPayouts(deps, olderThan),
    reconcile: (p: PayoutRow, settled?: Settled) => reconcilePayout(deps, p, settled),
    sweep: (now?: Date, minutes?: number) => sweepPayouts(deps, now, minutes),
  }
}
export type Payouts = ReturnType<typeof createPayouts>
