import type { DB } from '#server/db/database.ts'
import { notFound } from '#server/api/errors.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { inNamespace, notify } from '../projects/transition.ts'
import { nowIso, payable, priced, recordPayment, type CheckoutDeps } from './checkout.ts'
import type { Trx } from './ledger.ts'

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
type ApplyEvent = (gateway: string, rawBody: string, headers: Headers) => Promise<unknown>

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
 * Charges the client's saved card for these installments of their contract, once: the installments
 * must still await funding (a second call finds them funded, or their payment open, and stops).
 */
export async function chargeSaved(
  deps: CheckoutDeps & { applyEvent: ApplyEvent },
  { clientId, projectId, installmentIds }: { clientId: number; projectId: number; installmentIds: number[] },
): Promise<SavedChargeOutcome> {
  const { db } = deps
  const gateway = deps.gateways[Object.keys(deps.gateways)[0]!]!
  const method = await db
    .selectFrom('saved_payment_method')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('gateway', '=', gateway.name)
    .executeTakeFirst()
  if (!method || !gateway.chargeSaved) {
    await db.transaction().execute((trx) => askToPay(trx, clientId, projectId, 'noMethod'))
    return 'no_method'
  }
  const payment = await db.transaction().execute(async (trx) => {
    const q = await priced(deps, trx, { userId: clientId }, projectId, installmentIds)
    payable(q)
    return { ...(await recordPayment(trx, { userId: clientId }, gateway, q)), title: q.contract.title }
  })
  const result = await gateway.chargeSaved({
    token: payment.token,
    totalMinor: payment.total_minor,
    currency: payment.currency,
    description: payment.title,
    customerRef: method.customer_ref,
    methodRef: method.method_ref,
  })
  await db
    .updateTable('payment')
    .set({ gateway_ref: result.gatewayRef })
    .where('id', '=', payment.id)
    .execute()
  if (result.status === 'failed') {
    // The gateway's failure event may have come first and told the client already (callbacks.ts): once.
    await db.transaction().execute(async (trx) => {
      const failed = await trx
        .updateTable('payment')
        .set({ status: 'failed', failure: result.failure ?? 'failed', updated_at: nowIso() })
        .where('id', '=', payment.id)
        .where('status', '=', 'open')
        .executeTakeFirst()
      if (Number(failed.numUpdatedRows)) await askToPay(trx, clientId, projectId, 'failed')
    })
    return 'failed'
  }
  if (result.event) await deps.applyEvent(gateway.name, result.event.body, new Headers(result.event.headers))
  return result.status === 'succeeded' ? 'charged' : 'pending'
}
