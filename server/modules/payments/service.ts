import { randomBytes } from 'node:crypto'
import type { DB } from '../../db/database.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import type { Caller } from '../../api/handler.ts'
import { ApiError, notFound } from '../../api/errors.ts'
import type { MoneyMover, ProjectsService } from '../projects/service.ts'
import { account, post, userBalances, type Line, type Trx } from './ledger.ts'
import { feeOf, type Fees } from './fees.ts'
import { issueReleaseInvoices } from './invoices.ts'
import type { Gateway, GatewayEvent } from './gateways/gateway.ts'
import type { PayInput } from './contract.ts'
import { activeRefund, heldFor } from './refunds.ts'

// Payments (issue 17): a client pays installments of a contract at a gateway; the money is held in
// the client's account once the gateway confirms, and moves to the freelancer when the client
// approves. Every movement is a ledger posting (ledger.ts); this service decides which and when.
// Amounts always come from the contract, never from the request (decisions 172 and 173).

export type PaymentStatus = 'open' | 'requires_action' | 'failed' | 'succeeded' | 'cancelled'
/** Payments still waiting at the gateway: a new payment for one of their installments replaces them. */
const unsettled: PaymentStatus[] = ['open', 'requires_action', 'failed']
type Work = Pick<ProjectsService, 'contractForPayment' | 'fundInstallments'>

const conflict = (detail: string) => new ApiError(409, 'Conflict', detail)
const badRequest = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })
const nowIso = () => new Date().toISOString()

/** Applies a gateway's payout event in the callback's transaction (payouts.ts); answers whether it changed something. */
type PayoutEvents = (trx: Trx, gateway: string, event: GatewayEvent) => Promise<boolean>

export function createPaymentsService({
  db,
  dialect,
  fees,
  gateways,
  work,
  payoutEvents,
}: {
  db: DB
  dialect: Dialect
  fees: Fees
  gateways: Record<string, Gateway>
  work: Work
  payoutEvents?: PayoutEvents
}) {
  const defaultGateway = Object.keys(gateways)[0]
  /** Refund events go to the refunds (refunds.ts), which index.ts wires after both exist. */
  let refundEvent: (trx: Trx, gateway: string, event: GatewayEvent) => Promise<boolean> = async () => false

  /** The caller's contract on a project (404 for anyone else's) and the chosen installments priced from it. */
  async function priced(trx: Trx, caller: Caller, projectId: number, installmentIds: number[]) {
    const contract = await work.contractForPayment(trx, projectId)
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

  function payable(q: Awaited<ReturnType<typeof priced>>) {
    if (q.contract.status !== 'active')
      throw conflict(`The contract is ${q.contract.status}; nothing can be paid`)
    const paid = q.lines.find((l) => l.status !== 'pending')
    if (paid)
      throw conflict(
        `Installment ${paid.position} is ${paid.status.replace('_', ' ')}; only installments awaiting funding can be paid`,
      )
  }

  const shown = ({ contract, ...rest }: Awaited<ReturnType<typeof priced>>) => ({
    ...rest,
    projectId: contract.projectId,
    contractId: contract.id,
    projectTitle: contract.title,
    feePercent: fees.clientBps / 100,
  })

  /** What paying these installments costs: amount, the client's fee and the total, before going to the gateway. */
  async function quote(caller: Caller, projectId: number, installmentIds: number[]) {
    const q = await db.transaction().execute((trx) => priced(trx, caller, projectId, installmentIds))
    payable(q)
    return shown(q)
  }

  /** Payment/PayProjectInstallments: records the payment and sends the client to the gateway. */
  async function pay(caller: Caller, input: PayInput) {
    const gateway = gateways[defaultGateway]
    const payment = await db.transaction().execute(async (trx) => {
      const q = await priced(trx, caller, input.projectId, input.installmentIds)
      payable(q)
      if (input.totalMinor !== undefined && input.totalMinor !== q.totalMinor)
        throw conflict(
          `The total is now ${q.totalMinor} ${q.currency}, not ${input.totalMinor}; review it and pay again`,
        )
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
      return { ...row, quote: q }
    })
    const started = await gateway.startCheckout({
      token: payment.token,
      totalMinor: payment.total_minor,
      currency: payment.currency,
      description: payment.quote.contract.title,
      returnPath: `/projects/client/details/${payment.quote.contract.projectId}`,
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
      ...shown(payment.quote),
    }
  }

  /**
   * Payment/PaymentCallback: a gateway's signed event, applied once. The event id is recorded in the
   * transaction of its effect, so a repeat (or a concurrent twin) finds it and changes nothing; a
   * late or out-of-order event cannot undo a success (succeeded is final), and the capture's ledger
   * ref (capture:<payment>) stops a second credit even for a different event about the same payment.
   */
  async function callback(gatewayName: string, rawBody: string, headers: Headers) {
    // Own keys only: `?gateway=valueOf` found Object.prototype's function and answered 500 (the fuzzing, decision 257).
    const gateway = Object.hasOwn(gateways, gatewayName) ? gateways[gatewayName] : undefined
    if (!gateway) throw notFound('Gateway')
    const event = await gateway.verify(rawBody, headers)
    // Authentic but not ours (another product's event): acknowledged, not recorded.
    if (!event) return { received: true, applied: false }
    return db.transaction().execute(async (trx) => {
      const fresh = await trx
        .insertInto('gateway_event')
        .values({
          gateway: gateway.name,
          event_id: event.id,
          type: event.type,
          payment_id: null,
          received_at: nowIso(),
        })
        .onConflict((oc) => oc.columns(['gateway', 'event_id']).doNothing())
        .returning('event_id')
        .executeTakeFirst()
      if (!fresh) return { received: true, applied: false }
      if (event.type.startsWith('refund.'))
        return { received: true, applied: await refundEvent(trx, gateway.name, event) }
      if (event.type === 'payout.succeeded' || event.type === 'payout.failed')
        return {
          received: true,
          applied: payoutEvents ? await payoutEvents(trx, gateway.name, event) : false,
        }
      let q = trx
        .selectFrom('payment')
        .selectAll()
        .where('token', '=', event.paymentToken)
        .where('gateway', '=', gateway.name)
      if (dialect === 'postgres') q = q.forUpdate()
      const payment = await q.executeTakeFirst()
      if (!payment) return { received: true, applied: false }
      await trx
        .updateTable('gateway_event')
        .set({ payment_id: payment.id })
        .where('gateway', '=', gateway.name)
        .where('event_id', '=', event.id)
        .execute()
      if (event.amountMinor !== payment.total_minor || event.currency !== payment.currency)
        throw badRequest(
          'amountMinor',
          `must be the payment's total, ${payment.total_minor} ${payment.currency}`,
        )
      return { received: true, applied: await apply(trx, payment, event) }
    })
  }

  async function apply(
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
    const funded = await work.fundInstallments(trx, payment.contract_id, ids)
    if (funded.length)
      await trx
        .updateTable('payment_installment')
        .set({ applied: 1 })
        .where('payment_id', '=', payment.id)
        .where('installment_id', 'in', funded)
        .execute()
    await set({ status: 'succeeded', failure: null, applied: funded.length === ids.length ? 1 : 0 })
    return true
  }

  /** Releasing an installment: its held amount and client fee leave the client's held money; the freelancer gets the amount less the platform fee. */
  const mover: MoneyMover = {
    async release(trx, i) {
      const paid = await heldFor(trx, i.installmentId)
      if (!paid) throw conflict('The installment was not funded through a payment; nothing is held for it')
      // An open or disputed refund request holds the money until it is answered or decided (decision 181).
      const refund = await activeRefund(trx, i.installmentId)
      if (refund)
        throw conflict(
          `A refund request for this installment is ${refund.status}; it cannot be released until that is settled`,
        )
      // What a partial refund gave back is not released: the price left and its share of the client's fee (decision 180).
      const platformFee = feeOf(paid.priceLeft, fees.platformBps)
      const lines: Line[] = [
        { account: account.held(i.clientId, i.currency), amountMinor: paid.priceLeft + paid.feeLeft },
        {
          account: account.available(i.freelancerId, i.currency),
          amountMinor: -(paid.priceLeft - platformFee),
        },
        { account: account.fees(i.currency), amountMinor: -(paid.feeLeft + platformFee) },
      ].filter((l) => l.amountMinor !== 0)
      if (!lines.length) return
      const posted = await post(trx, dialect, {
        kind: 'release',
        ref: `release:${i.installmentId}`,
        contractId: i.contractId,
        installmentId: i.installmentId,
        paymentId: paid.payment_id,
        lines,
      })
      // The release's invoices are issued in its transaction (decision 190), once: only when it was
      // posted now, for what is released (a partial refund's part is not: decision 180).
      if (posted.posted)
        await issueReleaseInvoices(trx, {
          ...i,
          transactionId: posted.id,
          amountMinor: paid.priceLeft,
          clientFeeMinor: paid.feeLeft,
          platformFeeMinor: platformFee,
        })
    },
  }

  /** The hosted checkout's view of a payment (the sandbox's page): what to pay, to whom, and where to return. */
  async function checkoutSession(token: string) {
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

  return {
    quote,
    pay,
    callback,
    checkoutSession,
    mover,
    setRefundEvents: (apply: typeof refundEvent) => {
      refundEvent = apply
    },
    /** The caller's money per currency (held as a client; available and earned as a freelancer). */
    balances: async (caller: Caller) => ({ data: await userBalances(db, caller.userId) }),
  }
}

export type PaymentsService = ReturnType<typeof createPaymentsService>
