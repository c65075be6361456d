import type { DB } from '#server/db/database.ts'
import { notFound } from '#server/api/errors.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { inNamespace, notify } from '../projects/transition.ts'
import { nowIso, payable, priced, recordPayment, type CheckoutDeps } from './checkout.ts'
import type { Trx } from './ledger.ts'
import type { Gateway, SavedCharge } from './gateways/gateway.ts'
import type { PaymentContract } from '../projects/funding.ts'

// Charges without the client (decision 324): a client may save the card of a checkout with the
// gateway, and an approved timesheet week is then charged to it off-session. The payment is
// recorded and confirmed like any other (the gateway's event goes through the callback, once), so
// the ledger, invoices and statements treat it the same. Without a saved card, or when the charge
// fails, the client is told to pay the week at the checkout.

/** Keeps the gateway's reference of the card a checkout paid with, as the client's card for that gateway. */
export async function saveMethod(
  db: DB | Trx,
  token: string,
  methodRef: string,
  label: string,
  customerRef: string | null = null,
) {
  const p = await db
    .selectFrom('payment')
    .select(['client_id', 'gateway'])
    .where('token', '=', token)
    .executeTakeFirst()
  if (!p) throw notFound('Payment')
  const row = { method_ref: methodRef, label, customer_ref: customerRef, created_at: nowIso() }
  await db
    .insertInto('saved_payment_method')
    .values({ client_id: p.client_id, gateway: p.gateway, ...row })
    .onConflict((oc) => oc.columns(['client_id', 'gateway']).doUpdateSet(row))
    .execute()
}

export type SavedChargeOutcome = 'charged' | 'pending' | 'no_method' | 'failed'
/** A gateway's event applied as its callback is; `ref` is kept in the event's transaction (callbacks.ts). */
type ApplyEvent = (
  gateway: string,
  rawBody: string,
  headers: Headers,
  ref?: { paymentId: number; gatewayRef: string },
) => Promise<unknown>
type SavedChargeDeps = CheckoutDeps & { applyEvent: ApplyEvent }
type Week = { clientId: number; projectId: number; installmentIds: number[]; contract?: PaymentContract }

/** Tells the client that their week must be paid at the checkout (no card saved, or the charge failed). */
export async function askToPay(trx: Trx, clientId: number, projectId: number, why: 'noMethod' | 'failed') {
  const { title } = await trx
    .selectFrom('project')
    .select('title')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow()
  const e = inNamespace(
    'timesheets',
    notify([clientId], why === 'noMethod' ? 'weekToPay' : 'weekChargeFailed', projectId, 'Project', {
      title,
    }),
  )
  await enqueue(trx, e.topic, e.payload)
}

/**
 * Records the charge of these installments to the client's saved card in the caller's transaction
 * (a week's approval, so the week costs one commit less: decision 344), and answers what sends it to
 * the gateway after that commit. `week.contract`, when given, is the contract as the caller locked it
 * (decision 363). The installments must still await funding (a second call finds
 * them funded, or their payment open, and stops). Without a card, the client is told to pay at the
 * checkout, in the same transaction.
 */
export async function recordSavedCharge(
  deps: SavedChargeDeps,
  trx: Trx,
  week: Week,
): Promise<() => Promise<SavedChargeOutcome>> {
  const { clientId, projectId, installmentIds } = week
  const gateway = deps.gateways[Object.keys(deps.gateways)[0]!]!
  const method = await trx
    .selectFrom('saved_payment_method')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('gateway', '=', gateway.name)
    .executeTakeFirst()
  if (!method || !gateway.chargeSaved) {
    await askToPay(trx, clientId, projectId, 'noMethod')
    return async () => 'no_method'
  }
  const q = await priced(deps, trx, { userId: clientId }, projectId, installmentIds, week.contract)
  payable(q)
  const payment = await recordPayment(trx, { userId: clientId }, gateway, q)
  return () =>
    sendSavedCharge(deps, gateway, week, payment.id, {
      token: payment.token,
      totalMinor: payment.total_minor,
      currency: payment.currency,
      description: q.contract.title,
      customerRef: method.customer_ref,
      methodRef: method.method_ref,
    })
}

/** After the payment's commit: the gateway charges the card; its answer and reference are kept in one transaction. */
async function sendSavedCharge(
  deps: SavedChargeDeps,
  gateway: Gateway,
  { clientId, projectId }: Week,
  paymentId: number,
  charge: SavedCharge,
): Promise<SavedChargeOutcome> {
  const { db } = deps
  const result = await gateway.chargeSaved!(charge)
  const ref = { paymentId, gatewayRef: result.gatewayRef }
  if (result.status === 'failed') {
    // The gateway's failure event may have come first and told the client already (callbacks.ts): once.
    await db.transaction().execute(async (trx) => {
      await keepGatewayRef(trx, ref)
      const failed = await trx
        .updateTable('payment')
        .set({ status: 'failed', failure: result.failure ?? 'failed', updated_at: nowIso() })
        .where('id', '=', paymentId)
        .where('status', '=', 'open')
        .executeTakeFirst()
      if (Number(failed.numUpdatedRows)) await askToPay(trx, clientId, projectId, 'failed')
    })
    return 'failed'
  }
  if (!result.event) await keepGatewayRef(db, ref)
  else
    await deps
      .applyEvent(gateway.name, result.event.body, new Headers(result.event.headers), ref)
      // An event that could not be applied still leaves the reference to find the payment by at the gateway.
      .catch(async (error: unknown) => {
        await keepGatewayRef(db, ref)
        throw error
      })
  return result.status === 'succeeded' ? 'charged' : 'pending'
}

/** The gateway's reference of a payment, by which refunds and reconciliation find it there. */
export const keepGatewayRef = (
  db: DB | Trx,
  { paymentId, gatewayRef }: { paymentId: number; gatewayRef: string },
) => db.updateTable('payment').set({ gateway_ref: gatewayRef }).where('id', '=', paymentId).execute()
