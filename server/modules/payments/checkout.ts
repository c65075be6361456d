import { randomBytes } from 'node:crypto'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { badRequest, conflict, notFound } from '#server/api/errors.ts'
import type { ProjectsService } from '../projects/service.ts'
import type { PaymentContract } from '../projects/funding.ts'
import type { Trx } from './ledger.ts'
import { feeOf, type Fees } from './fees.ts'
import type { Gateway } from './gateways/gateway.ts'
import type { PayInput } from './contract.ts'
import { customerFor } from './gateway-customers.ts'

// Defined once in the API's errors; re-exported for this module's use cases.
export { badRequest, conflict }

// Paying installments: the price is quoted from the contract (never from the request, decisions
// 172 and 173), the payment is recorded, and the client is sent to the gateway's checkout.

export type PaymentStatus = 'open' | 'requires_action' | 'failed' | 'succeeded' | 'cancelled'
/** Payments still waiting at the gateway: a new payment for one of their installments replaces them. */
const unsettled: PaymentStatus[] = ['open', 'requires_action', 'failed']

export interface CheckoutDeps {
  db: DB
  fees: Fees
  gateways: Record<string, Gateway>
  work: Pick<ProjectsService, 'contractForPayment'>
}

export const nowIso = () => new Date().toISOString()

/**
 * The caller's contract on a project (404 for anyone else's) and the chosen installments priced from
 * it; `known`, the contract as the caller's transaction already locked and read it.
 */
export async function priced(
  { fees, work }: CheckoutDeps,
  trx: Trx,
  caller: Pick<Caller, 'userId'>,
  projectId: number,
  installmentIds: number[],
  known?: PaymentContract,
) {
  const contract = known ?? (await work.contractForPayment(trx, projectId, installmentIds))
  if (!contract || contract.clientId !== caller.userId) throw notFound('Contract')
  const chosen = [...new Set(installmentIds)].map((id) => contract.installments.find((i) => i.id === id))
  if (chosen.some((i) => !i)) throw badRequest('installmentIds', 'must be installments of this contract')
  const lines = chosen.map((i) => ({
    installmentId: i!.id,
    position: i!.position,
    title: i!.title,
    status: i!.status,
    amountMinor: i!.amount_minor,
    feeMinor: feeOf(i!.amount_minor, fees.clientBps),
  }))
  const amountMinor = lines.reduce((s, l) => s + l.amountMinor, 0)
  const feeMinor = lines.reduce((s, l) => s + l.feeMinor, 0)
  return {
    contract,
    lines,
    currency: contract.currency,
    amountMinor,
    feeMinor,
    totalMinor: amountMinor + feeMinor,
  }
}
type Quote = Awaited<ReturnType<typeof priced>>

export function payable(q: Quote) {
  if (q.contract.status !== 'active')
    throw conflict(`The contract is ${q.contract.status}; nothing can be paid`)
  const paid = q.lines.find((l) => l.status !== 'pending')
  if (paid)
    throw conflict(
      `Installment ${paid.position} is ${paid.status.replace('_', ' ')}; only installments awaiting funding can be paid`,
    )
}

const shown = (fees: Fees, { contract, ...rest }: Quote) => ({
  ...rest,
  projectId: contract.projectId,
  contractId: contract.id,
  projectTitle: contract.title,
  feePercent: fees.clientBps / 100,
})

/** What paying these installments costs: amount, the client's fee and the total, before going to the gateway. */
export async function quote(deps: CheckoutDeps, caller: Caller, projectId: number, installmentIds: number[]) {
  const q = await deps.db.transaction().execute((trx) => priced(deps, trx, caller, projectId, installmentIds))
  payable(q)
  return shown(deps.fees, q)
}

/** The payment's rows: earlier checkouts of these installments are abandoned, the new one is recorded open. */
export async function recordPayment(trx: Trx, caller: Pick<Caller, 'userId'>, gateway: Gateway, q: Quote) {
  const ids = q.lines.map((l) => l.installmentId)
  // An earlier checkout for one of these installments is abandoned: it can no longer be paid.
  const stale = await trx
    .selectFrom('payment_installment as pi')
    .innerJoin('payment as p', 'p.id', 'pi.payment_id')
    .select('p.id')
    .where('pi.installment_id', 'in', ids)
    .where('p.status', 'in', unsettled)
    .execute()
  if (stale.length)
    await trx
      .updateTable('payment')
      .set({ status: 'cancelled', updated_at: nowIso() })
      .where(
        'id',
        'in',
        stale.map((p) => p.id),
      )
      .where('status', 'in', unsettled)
      .execute()
  const now = nowIso()
  const row = await trx
    .insertInto('payment')
    .values({
      token: randomBytes(18).toString('base64url'),
      client_id: caller.userId,
      contract_id: q.contract.id,
      gateway: gateway.name,
      gateway_ref: null,
      status: 'open',
      amount_minor: q.amountMinor,
      fee_minor: q.feeMinor,
      total_minor: q.totalMinor,
      currency: q.currency,
      failure: null,
      created_at: now,
      updated_at: now,
    })
    .returning(['id', 'token', 'total_minor', 'currency'])
    .executeTakeFirstOrThrow()
  await trx
    .insertInto('payment_installment')
    .values(
      q.lines.map((l) => ({
        payment_id: row.id,
        installment_id: l.installmentId,
        amount_minor: l.amountMinor,
        fee_minor: l.feeMinor,
      })),
    )
    .execute()
  return row
}

/** Payment/PayProjectInstallments: records the payment and sends the client to the gateway. */
export async function pay(deps: CheckoutDeps, caller: Caller, input: PayInput) {
  const { db, gateways } = deps
  const gateway = gateways[Object.keys(gateways)[0]]
  const payment = await db.transaction().execute(async (trx) => {
    const q = await priced(deps, trx, caller, input.projectId, input.installmentIds)
    payable(q)
    if (input.totalMinor !== undefined && input.totalMinor !== q.totalMinor)
      throw conflict(
        `The total is now ${q.totalMinor} ${q.currency}, not ${input.totalMinor}; review it and pay again`,
      )
    return { ...(await recordPayment(trx, caller, gateway, q)), quote: q }
  })
  const started = await gateway.startCheckout({
    token: payment.token,
    totalMinor: payment.total_minor,
    currency: payment.currency,
    description: payment.quote.contract.title,
    returnPath: `/projects/client/details/${payment.quote.contract.projectId}`,
    // An hourly contract's weeks are charged to the card without the client, so its checkout saves it (decision 334).
    saveForCustomer:
      payment.quote.contract.billing === 'hourly' ? await customerFor(db, gateway, caller.userId) : undefined,
  })
  await db
    .updateTable('payment')
    .set({ gateway_ref: started.gatewayRef })
    .where('id', '=', payment.id)
    .execute()
  return {
    paymentId: payment.id,
    token: payment.token,
    checkoutUrl: started.redirectUrl,
    status: 'open' as const,
    ...shown(deps.fees, payment.quote),
  }
}

/** The hosted checkout's view of a payment (the sandbox's page): what to pay, to whom, and where to return. */
export async function checkoutSession(db: DB, token: string) {
  const p = await db
    .selectFrom('payment as p')
    .innerJoin('contract as c', 'c.id', 'p.contract_id')
    .innerJoin('project as pr', 'pr.id', 'c.project_id')
    .select([
      'p.id',
      'p.token',
      'p.status',
      'p.failure',
      'p.gateway',
      'p.amount_minor',
      'p.fee_minor',
      'p.total_minor',
      'p.currency',
      'c.project_id',
      'pr.title',
    ])
    .where('p.token', '=', token)
    .executeTakeFirst()
  if (!p) throw notFound('Payment')
  return {
    token: p.token,
    gateway: p.gateway,
    status: p.status as PaymentStatus,
    failure: p.failure,
    amountMinor: p.amount_minor,
    feeMinor: p.fee_minor,
    totalMinor: p.total_minor,
    currency: p.currency,
    projectId: p.project_id,
    projectTitle: p.title,
    returnUrl: `/projects/client/details/${p.project_id}`,
  }
}
