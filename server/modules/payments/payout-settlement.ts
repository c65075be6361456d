import type { Dialect } from '#server/db/migrations/helpers.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { account, post, type Trx } from './ledger.ts'
import type { GatewayEvent, GatewayMoneyResult } from './gateways/gateway.ts'
import type { PayoutStatus } from './states.ts'
import {
  badRequest,
  columns,
  nowIso,
  PAYMENTS_NOTIFY_TOPIC,
  payoutRef,
  type PayoutRow,
} from './payout-rows.ts'

// The gateway's answer to a payout, applied once whichever way it arrives: the answer to our
// request, a later event, or reconciliation asking again.

/**
 * The gateway's answer, applied once: a payout still requested becomes paid (in flight →
 * clearing) or failed (a reversal returns the money to available); any later answer changes
 * nothing. Answers whether it changed something.
 */
export async function settlePayout(
  trx: Trx,
  dialect: Dialect,
  payoutId: number,
  result: GatewayMoneyResult,
  settled?: (trx: Trx, status: PayoutStatus) => Promise<void>,
) {
  if (result.status === 'pending') {
    await trx
      .updateTable('payout')
      .set({ gateway_ref: result.gatewayRef, updated_at: nowIso() })
      .where('id', '=', payoutId)
      .where('status', '=', 'requested')
      .execute()
    return false
  }
  let q = trx.selectFrom('payout').select(columns).where('id', '=', payoutId)
  if (dialect === 'postgres') q = q.forUpdate()
  const p = (await q.executeTakeFirst()) as PayoutRow | undefined
  if (!p || p.status !== 'requested') return false
  await postAnswer(trx, dialect, p, result)
  const status: PayoutStatus = result.status === 'succeeded' ? 'paid' : 'failed'
  await trx
    .updateTable('payout')
    .set({
      status,
      gateway_ref: result.gatewayRef,
      failure: status === 'failed' ? (result.failure ?? 'failed') : null,
      updated_at: nowIso(),
    })
    .where('id', '=', p.id)
    .execute()
  await enqueue(trx, PAYMENTS_NOTIFY_TOPIC, {
    userIds: [p.user_id],
    kind: status === 'paid' ? 'payoutPaid' : 'payoutFailed',
    // The amount is a fact: each reader's notification says it as money in their language.
    params: { amountMinor: Number(p.amount_minor), currency: p.currency, destination: p.destination_masked },
  })
  await settled?.(trx, status)
  return true
}

/** The ledger's side of the answer: paid moves the money in flight to the gateway, failed reverses the payout's posting. */
async function postAnswer(trx: Trx, dialect: Dialect, p: PayoutRow, result: GatewayMoneyResult) {
  const amount = Number(p.amount_minor)
  const sent = await trx
    .selectFrom('ledger_transaction')
    .select('id')
    .where('ref', '=', payoutRef(p.id))
    .executeTakeFirstOrThrow()
  if (result.status === 'succeeded') {
    await post(trx, dialect, {
      kind: 'payout_paid',
      ref: `payout-paid:${p.id}`,
      lines: [
        { account: account.inFlight(p.user_id, p.currency), amountMinor: amount },
        { account: account.clearing(p.gateway, p.currency), amountMinor: -amount },
      ],
    })
  } else {
    await post(trx, dialect, {
      kind: 'reversal',
      ref: `payout-failed:${p.id}`,
      reversesId: sent.id,
      memo: result.failure ?? 'failed',
      lines: [
        { account: account.inFlight(p.user_id, p.currency), amountMinor: amount },
        { account: account.available(p.user_id, p.currency), amountMinor: -amount },
      ],
    })
  }
}

/** A gateway's payout event (its paymentToken is our payout id), from Payment/PaymentCallback's transaction. */
export async function applyPayoutEvent(trx: Trx, dialect: Dialect, gatewayName: string, event: GatewayEvent) {
  const id = Number(event.paymentToken)
  if (!Number.isSafeInteger(id)) return false
  const p = await trx
    .selectFrom('payout')
    .select(['amount_minor', 'currency', 'gateway'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!p || p.gateway !== gatewayName) return false
  if (event.amountMinor !== Number(p.amount_minor) || event.currency !== p.currency)
    throw badRequest('amountMinor', `must be the payout's amount, ${p.amount_minor} ${p.currency}`)
  return settlePayout(trx, dialect, id, {
    status: event.type === 'payout.succeeded' ? 'succeeded' : 'failed',
    gatewayRef: event.id,
    failure: event.failure,
  })
}
