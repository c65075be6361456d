import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { InstallmentState } from '../projects/machines.ts'
import { conflict, lockRow, transitionInstallment } from '../projects/transition.ts'
import { account, post, type Trx } from './ledger.ts'
import { feeLeft } from './fees.ts'
import type { Gateway, GatewayEvent } from './gateways/gateway.ts'
import {
  badRequest,
  heldFor,
  nowIso,
  refundableStates,
  refundToken,
  type RequestRow,
  type Settled,
} from './refund-rows.ts'

// The refund's money: the ledger posting that gives it back, the gateway asked to send it to the
// card after commit, and the gateway's answer (a failure puts the money back where it was held).

/**
 * Money goes back: `priceMinor` of the installment's price and its share of the client's fee
 * leave the client's held money for the gateway's clearing, once (ref refund:<request>). All of
 * the price refunded sends the installment back to awaiting funding.
 */
export async function moveBack(trx: Trx, dialect: Dialect, r: RequestRow, priceMinor: number) {
  const held = await heldFor(trx, r.installment_id)
  if (!held) throw conflict('Nothing is held for this installment')
  if (priceMinor > held.priceLeft) throw badRequest('amount', 'refunds:errors.aboveHeld')
  const refunded = held.refunded_minor + priceMinor
  const fee = held.feeLeft - feeLeft(held.fee_minor, held.amount_minor, refunded)
  const { posted } = await post(trx, dialect, {
    kind: 'refund',
    ref: `refund:${r.id}`,
    contractId: r.contract_id,
    installmentId: r.installment_id,
    paymentId: held.payment_id,
    lines: [
      { account: account.held(r.client_id, r.currency), amountMinor: priceMinor + fee },
      { account: account.clearing(held.gateway, r.currency), amountMinor: -(priceMinor + fee) },
    ],
  })
  if (!posted) throw conflict('This refund was already made')
  const all = refunded === held.amount_minor
  // All of it back: the installment awaits funding again, and a new payment may fund it.
  await trx
    .updateTable('installment')
    .set({ refunded_minor: all ? 0 : refunded })
    .where('id', '=', r.installment_id)
    .execute()
  if (all) {
    await trx
      .updateTable('payment_installment')
      .set({ applied: 0 })
      .where('payment_id', '=', held.payment_id)
      .where('installment_id', '=', r.installment_id)
      .execute()
    const i = (await lockRow(trx, dialect, 'installment', r.installment_id))!
    await transitionInstallment(trx, {
      id: i.id,
      current: i.status as InstallmentState,
      action: 'refund',
      actor: 'system',
      actorId: null,
      projectId: r.project_id,
    })
  }
  await trx
    .updateTable('refund_request')
    .set({ fee_minor: fee, gateway_status: 'pending', updated_at: nowIso() })
    .where('id', '=', r.id)
    .execute()
  return { fee, all }
}

/** After commit: asks the gateway that took the payment to send the money back (sandbox: at once). */
export async function sendBack(
  { db, dialect, gateways }: { db: DB; dialect: Dialect; gateways: Record<string, Gateway> },
  requestId: number,
  settled?: Settled,
) {
  const r = await db
    .selectFrom('refund_request as r')
    .innerJoin('payment as p', 'p.id', 'r.payment_id')
    .select([
      'r.id',
      'r.amount_minor',
      'r.fee_minor',
      'r.currency',
      'r.gateway_status',
      'p.gateway',
      'p.token',
      'p.gateway_ref',
    ])
    .where('r.id', '=', requestId)
    .executeTakeFirst()
  if (!r || r.gateway_status !== 'pending') return
  const gateway = gateways[r.gateway]
  if (!gateway) return
  const result = await gateway.refund({
    refundId: refundToken(r.id),
    paymentToken: r.token,
    gatewayRef: r.gateway_ref ?? '',
    amountMinor: r.amount_minor + r.fee_minor,
    currency: r.currency,
  })
  return db
    .transaction()
    .execute((trx) =>
      settleAtGateway(
        trx,
        dialect,
        r.id,
        result.status === 'pending' ? null : result.status,
        result.gatewayRef,
        settled,
      ),
    )
}

/** The gateway's answer, once: succeeded is final; failed puts the money back in the client's held account. */
async function settleAtGateway(
  trx: Trx,
  dialect: Dialect,
  requestId: number,
  status: 'succeeded' | 'failed' | null,
  gatewayRef: string | null,
  settled?: Settled,
) {
  let q = trx.selectFrom('refund_request').selectAll().where('id', '=', requestId)
  if (dialect === 'postgres') q = q.forUpdate()
  const r = await q.executeTakeFirst()
  if (!r || r.gateway_status !== 'pending') return false
  if (!status) {
    if (gatewayRef)
      await trx
        .updateTable('refund_request')
        .set({ gateway_ref: gatewayRef })
        .where('id', '=', r.id)
        .execute()
    return false
  }
  if (status === 'failed') await reverseFailed(trx, dialect, r)
  await trx
    .updateTable('refund_request')
    .set({ gateway_status: status, gateway_ref: gatewayRef ?? r.gateway_ref, updated_at: nowIso() })
    .where('id', '=', r.id)
    .execute()
  await settled?.(trx, status)
  return true
}

/**
 * The card could not take it back: the money is the client's again, held (decision 180);
 * support follows it up. The refund's posting stays; this reverses it.
 */
async function reverseFailed(trx: Trx, dialect: Dialect, r: RequestRow) {
  const payment = await trx
    .selectFrom('payment')
    .select('gateway')
    .where('id', '=', r.payment_id)
    .executeTakeFirstOrThrow()
  const original = await trx
    .selectFrom('ledger_transaction')
    .select('id')
    .where('ref', '=', `refund:${r.id}`)
    .executeTakeFirstOrThrow()
  const total = r.amount_minor + r.fee_minor
  await post(trx, dialect, {
    kind: 'reversal',
    ref: `refund-failed:${r.id}`,
    contractId: r.contract_id,
    installmentId: r.installment_id,
    paymentId: r.payment_id,
    reversesId: original.id,
    lines: [
      { account: account.clearing(payment.gateway, r.currency), amountMinor: total },
      { account: account.held(r.client_id, r.currency), amountMinor: -total },
    ],
  })
  await restoreInstallment(trx, dialect, r)
}

/**
 * A failed refund's money is held again, so the installment must say so (decision 234): a partial
 * refund's part counts as held again; a full refund had sent it back to awaiting funding, so it is
 * funded again by the same payment, unless a new payment funded it meanwhile (then the money held
 * again stays the client's and support follows it up). An installment a dispute settled stays
 * released: what failed to go back is the client's held money.
 */
async function restoreInstallment(trx: Trx, dialect: Dialect, r: RequestRow) {
  const i = (await lockRow(trx, dialect, 'installment', r.installment_id))!
  const applied = await trx
    .selectFrom('payment_installment')
    .select('payment_id')
    .where('installment_id', '=', i.id)
    .where('applied', '=', 1)
    .executeTakeFirst()
  if (refundableStates.includes(i.status as InstallmentState)) {
    if (applied?.payment_id !== r.payment_id) return
    await trx
      .updateTable('installment')
      .set({ refunded_minor: Math.max(0, i.refunded_minor - r.amount_minor) })
      .where('id', '=', i.id)
      .execute()
    return
  }
  if (i.status !== 'pending' || applied) return
  const paid = await trx
    .selectFrom('payment_installment')
    .select('amount_minor')
    .where('payment_id', '=', r.payment_id)
    .where('installment_id', '=', i.id)
    .executeTakeFirstOrThrow()
  await trx
    .updateTable('payment_installment')
    .set({ applied: 1 })
    .where('payment_id', '=', r.payment_id)
    .where('installment_id', '=', i.id)
    .execute()
  await transitionInstallment(trx, {
    id: i.id,
    current: 'pending',
    action: 'refund_failed',
    actor: 'system',
    actorId: null,
    projectId: r.project_id,
    set: { refunded_minor: paid.amount_minor - r.amount_minor },
  })
}

/** A gateway's refund event (Payment/PaymentCallback), already deduplicated by its event id. */
export async function applyRefundEvent(trx: Trx, dialect: Dialect, gateway: string, event: GatewayEvent) {
  const id = Number(/^refund_(\d+)$/.exec(event.paymentToken)?.[1])
  if (!id) return false
  const r = await trx
    .selectFrom('refund_request as r')
    .innerJoin('payment as p', 'p.id', 'r.payment_id')
    .select(['r.amount_minor', 'r.fee_minor', 'r.currency', 'p.gateway'])
    .where('r.id', '=', id)
    .executeTakeFirst()
  if (!r || r.gateway !== gateway) return false
  if (event.amountMinor !== r.amount_minor + r.fee_minor || event.currency !== r.currency)
    throw badRequest(
      'amountMinor',
      `must be the refund's total, ${r.amount_minor + r.fee_minor} ${r.currency}`,
    )
  return settleAtGateway(trx, dialect, id, event.type === 'refund.succeeded' ? 'succeeded' : 'failed', null)
}
