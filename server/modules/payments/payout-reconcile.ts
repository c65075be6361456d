import { paymentDestination } from '../profiles/rules.ts'
import type { Trx } from './ledger.ts'
import type { PayoutStatus } from './states.ts'
import { columns, type PayoutDeps, type PayoutRow } from './payout-rows.ts'
import { settlePayout } from './payout-settlement.ts'

// Payouts whose gateway answer was lost (issue 17's gap, decision 250): found, asked about at the
// gateway by our payout id, and settled once.

/**
 * Payouts still `requested` since before `olderThan`: their gateway answer was lost (a crash
 * between the answer and our commit, a timeout) or never asked for.
 */
export const stuckPayouts = ({ db }: PayoutDeps, olderThan: string) =>
  db
    .selectFrom('payout')
    .select(columns)
    .where('status', '=', 'requested')
    .where('updated_at', '<', olderThan)
    .orderBy('id')
    .limit(200)
    .execute() as Promise<PayoutRow[]>

/**
 * Reconciliation (issue 17's gap, decision 250): asks the gateway what became of one payout, by
 * our payout id, and settles it through `settle`, so it changes once however many instances or
 * admins ask at the same moment. A payout the gateway never received is asked for now (the same
 * id: the gateway's idempotency key). No answer leaves it as it was, for the next run.
 * `settled` runs in the settling transaction (the admin's audit row). Answers the new state or null.
 */
export async function reconcilePayout(
  { db, dialect, gateway }: PayoutDeps,
  p: PayoutRow,
  settled?: (trx: Trx, status: PayoutStatus) => Promise<void>,
): Promise<PayoutStatus | null> {
  let result = gateway.findPayout ? await gateway.findPayout(String(p.id)) : null
  if (!result) {
    const method = p.payment_method_id
      ? await db
          .selectFrom('payment_method')
          .selectAll()
          .where('id', '=', p.payment_method_id)
          .executeTakeFirst()
      : undefined
    // A method removed since is not paid to: no gateway has it, so the money goes back.
    result = method
      ? await gateway.payout({
          payoutId: String(p.id),
          amountMinor: Number(p.amount_minor),
          currency: p.currency,
          destination: { kind: method.kind, ref: paymentDestination(method).ref },
        })
      : { status: 'failed', gatewayRef: '', failure: 'destination_removed' }
  }
  if (result.status === 'pending') return null
  let status: PayoutStatus | null = null
  await db.transaction().execute((trx) =>
    settlePayout(trx, dialect, p.id, result, async (t, s) => {
      status = s
      await settled?.(t, s)
    }),
  )
  return status
}

/**
 * The periodic sweep: every payout requested more than `minutes` ago is reconciled. Safe on many
 * instances at once (settle locks the payout and changes only a requested one; the ledger refs
 * are unique). Answers how many were settled.
 */
export async function sweepPayouts(deps: PayoutDeps, now = new Date(), minutes = 10) {
  let settled = 0
  for (const p of await stuckPayouts(deps, new Date(now.getTime() - minutes * 60_000).toISOString())) {
    try {
      if (await reconcilePayout(deps, p)) settled++
    } catch (error) {
      deps.log?.(`payout ${p.id}: reconciliation could not reach the gateway`, error)
    }
  }
  return { settled }
}
