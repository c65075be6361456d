import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import { notFound } from '#server/api/errors.ts'
import type { ProjectsService } from '../projects/service.ts'
import { account, platformSumsLast, post, type Trx } from './ledger.ts'
import type { Gateway, GatewayEvent } from './gateways/gateway.ts'
import { badRequest, nowIso, type PaymentStatus } from './checkout.ts'
import { askToPay, keepGatewayRef, saveMethod } from './saved-methods.ts'

// A gateway's signed events: a payment's answer, or a refund's or a payout's, each applied once in
// the transaction that records the event.

/** Applies a gateway's refund or payout event in the callback's transaction; answers whether it changed something. */
export type GatewayEvents = (trx: Trx, gateway: string, event: GatewayEvent) => Promise<boolean>

export interface CallbackDeps {
  db: DB
  dialect: Dialect
  gateways: Record<string, Gateway>
  work: Pick<ProjectsService, 'fundInstallments' | 'releaseApprovedHours'>
  refundEvents?: GatewayEvents
  payoutEvents?: GatewayEvents
  /** A connected account's status (decision 333). */
  accountEvents?: GatewayEvents
}

/**
 * Payment/PaymentCallback: a gateway's signed event, applied once. The event id is recorded in the
 * transaction of its effect, so a repeat (or a concurrent twin) finds it and changes nothing; a
 * late or out-of-order event cannot undo a success (succeeded is final), and the capture's ledger
 * ref (capture:<payment>) stops a second credit even for a different event about the same payment.
 * A saved charge's answer (saved-methods.ts) brings its payment's gateway reference, kept in the
 * same transaction rather than a commit of its own.
 */
export async function callback(
  deps: CallbackDeps,
  gatewayName: string,
  rawBody: string,
  headers: Headers,
  ref?: { paymentId: number; gatewayRef: string },
) {
  const { db, gateways } = deps
  // Own keys only: `?gateway=valueOf` found Object.prototype's function and answered 500 (the fuzzing, decision 257).
  const gateway = Object.hasOwn(gateways, gatewayName) ? gateways[gatewayName] : undefined
  if (!gateway) throw notFound('Gateway')
  const event = await gateway.verify(rawBody, headers)
  // Authentic but not ours (another product's event): acknowledged, not recorded.
  if (!event) return { received: true, applied: false }
  // The platform's accounts move at the transaction's end: every payment's event moves them (decision 354).
  return db
    .transaction()
    .execute((trx) => platformSumsLast(trx, () => applyEvent(deps, trx, gateway.name, event, ref)))
}

async function applyEvent(
  deps: CallbackDeps,
  trx: Trx,
  gateway: string,
  event: GatewayEvent,
  ref?: { paymentId: number; gatewayRef: string },
) {
  if (ref) await keepGatewayRef(trx, ref)
  const fresh = await trx
    .insertInto('gateway_event')
    .values({
      gateway,
      event_id: event.id,
      type: event.type,
      payment_id: null,
      received_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['gateway', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst()
  if (!fresh) return { received: true, applied: false }
  return { received: true, applied: await dispatch(deps, trx, gateway, event) }
}

/** The event's effect: a refund's, a payout's, or (checked against the payment's total) a payment's. */
async function dispatch(deps: CallbackDeps, trx: Trx, gateway: string, event: GatewayEvent) {
  if (event.type.startsWith('refund.'))
    return deps.refundEvents ? deps.refundEvents(trx, gateway, event) : false
  if (event.type === 'payout.succeeded' || event.type === 'payout.failed')
    return deps.payoutEvents ? deps.payoutEvents(trx, gateway, event) : false
  if (event.type === 'account.updated')
    return deps.accountEvents ? deps.accountEvents(trx, gateway, event) : false
  let q = trx
    .selectFrom('payment')
    .selectAll()
    .where('token', '=', event.paymentToken)
    .where('gateway', '=', gateway)
  if (deps.dialect === 'postgres') q = q.forUpdate()
  const payment = await q.executeTakeFirst()
  if (!payment) return false
  await trx
    .updateTable('gateway_event')
    .set({ payment_id: payment.id })
    .where('gateway', '=', gateway)
    .where('event_id', '=', event.id)
    .execute()
  if (event.amountMinor !== payment.total_minor || event.currency !== payment.currency)
    throw badRequest('amountMinor', `must be the payment's total, ${payment.total_minor} ${payment.currency}`)
  const saved = event.savedMethod
  if (saved && event.type === 'payment.succeeded')
    await saveMethod(trx, payment.token, saved.methodRef, saved.label, saved.customerRef)
  const applied = await applyPaymentEvent(deps, trx, payment, event)
  // A week charged without the client that the gateway refused later: they pay it at the checkout (decision 334).
  if (applied && event.type === 'payment.failed' && event.offSession) {
    const { project_id } = await trx
      .selectFrom('contract')
      .select('project_id')
      .where('id', '=', payment.contract_id)
      .executeTakeFirstOrThrow()
    await askToPay(trx, payment.client_id, project_id, 'failed')
  }
  return applied
}

async function applyPaymentEvent(
  { dialect, work }: CallbackDeps,
  trx: Trx,
  payment: {
    id: number
    status: string
    contract_id: number
    client_id: number
    total_minor: number
    currency: string
    gateway: string
  },
  event: GatewayEvent,
) {
  const set = (values: { status: PaymentStatus; failure?: string | null; applied?: number }) =>
    trx
      .updateTable('payment')
      .set({ ...values, updated_at: nowIso() })
      .where('id', '=', payment.id)
      .execute()
  const status = payment.status as PaymentStatus
  if (event.type === 'payment.requires_action') {
    if (status !== 'open' && status !== 'failed') return false
    await set({ status: 'requires_action' })
    return true
  }
  if (event.type === 'payment.failed') {
    if (status !== 'open' && status !== 'requires_action') return false
    await set({ status: 'failed', failure: event.failure ?? 'failed' })
    return true
  }
  if (status === 'succeeded') return false
  // The money arrived: it is the client's, held. Installments still awaiting funding are funded
  // by it; what no installment takes any more (a checkout replaced meanwhile, a cancelled
  // contract) stays held for the client, and the payment says it was not applied.
  await post(trx, dialect, {
    kind: 'capture',
    ref: `capture:${payment.id}`,
    contractId: payment.contract_id,
    paymentId: payment.id,
    lines: [
      { account: account.clearing(payment.gateway, payment.currency), amountMinor: payment.total_minor },
      { account: account.held(payment.client_id, payment.currency), amountMinor: -payment.total_minor },
    ],
  })
  const ids = (
    await trx
      .selectFrom('payment_installment')
      .select('installment_id')
      .where('payment_id', '=', payment.id)
      .execute()
  ).map((r) => r.installment_id)
  const funding = await work.fundInstallments(trx, payment.contract_id, ids)
  const funded = funding.installments.map((i) => i.id)
  if (funded.length)
    await trx
      .updateTable('payment_installment')
      .set({ applied: 1 })
      .where('payment_id', '=', payment.id)
      .where('installment_id', 'in', funded)
      .execute()
  // An approved timesheet week was work approved before it was charged: funded, it is released (decision 324).
  await work.releaseApprovedHours(trx, funding)
  await set({ status: 'succeeded', failure: null, applied: funded.length === ids.length ? 1 : 0 })
  return true
}
