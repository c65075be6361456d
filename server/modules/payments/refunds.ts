import type { DB } from '../../db/database.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import type { Caller } from '../../api/handler.ts'
import { ApiError, forbidden, notFound } from '../../api/errors.ts'
import { enqueue } from '../../jobs/outbox.ts'
import { CHAT_EVENT_TOPIC, type ChatEvent, type ChatEventPayload } from '../chat/rules.ts'
import type { InstallmentState } from '../projects/machines.ts'
import { readContractOfProject } from '../projects/reads.ts'
import { prepared } from '../../db/prepared.ts'
import type { MoneyMover, ProjectsService } from '../projects/service.ts'
import { conflict, inNamespace, lockRow, notify, transitionInstallment } from '../projects/transition.ts'
import { account, post, type Trx } from './ledger.ts'
import { feeLeft } from './fees.ts'
import type { Gateway, GatewayEvent } from './gateways/gateway.ts'

// Refund requests (issue 17 item 5, decisions 180–182). The client asks for part or all of a
// funded, not yet released installment's price back, with a reason; the freelancer accepts or
// declines (with a reason) within REFUND_RESPONSE_DAYS. Accepting moves the money in one balanced
// posting (client held → the gateway's clearing: the platform no longer holds it, the gateway owes
// it back to the card) and asks the gateway that took the payment to refund it, after commit. A
// decline, or no answer in time, lets the client open a dispute: the installment is frozen until
// an admin decides (decideDispute) how much goes back and how much is released.
//
// Amounts: `amount` is of the installment's price; the client's fee held with it goes back in
// proportion (fees.ts feeLeft), so a full refund returns everything the client paid for it.

export type RefundStatus = 'open' | 'accepted' | 'declined' | 'disputed' | 'decided'
/** Installment states whose money is held and not yet released: the ones a refund may be asked for. */
export const refundableStates: readonly InstallmentState[] = ['funded', 'submitted', 'changes_requested']
const DAY = 86_400_000
const nowIso = () => new Date().toISOString()
const badRequest = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })
/** The id a gateway is given for a refund, and that its events carry back. */
export const refundToken = (id: number) => `refund_${id}`

/** What was paid for an installment and how much of its price is left held (null when no payment funded it). */
export async function heldFor(trx: Trx | DB, installmentId: number) {
  const row = await trx
    .selectFrom('payment_installment as pi')
    .innerJoin('payment as p', 'p.id', 'pi.payment_id')
    .innerJoin('installment as i', 'i.id', 'pi.installment_id')
    .select([
      'pi.amount_minor',
      'pi.fee_minor',
      'p.id as payment_id',
      'p.gateway',
      'p.token',
      'p.gateway_ref',
      'p.currency',
      'i.refunded_minor',
    ])
    .where('pi.installment_id', '=', installmentId)
    .where('pi.applied', '=', 1)
    .executeTakeFirst()
  if (!row) return null
  const priceLeft = row.amount_minor - row.refunded_minor
  return { ...row, priceLeft, feeLeft: feeLeft(row.fee_minor, row.amount_minor, row.refunded_minor) }
}

/** A refund request that is open or disputed holds the installment: no release meanwhile. */
export async function activeRefund(trx: Trx, installmentId: number) {
  return trx
    .selectFrom('refund_request')
    .select(['id', 'status'])
    .where('active_installment_id', '=', installmentId)
    .executeTakeFirst()
}

/** Runs in the transaction that records the gateway's answer (an admin's audit row, decision 252). */
type Settled = (trx: Trx, status: 'succeeded' | 'failed') => Promise<void>
type Work = Pick<ProjectsService, 'contractForPayment' | 'autoRelease'>
type RequestRow = NonNullable<Awaited<ReturnType<typeof requestRow>>>
// The contract page reads these on every request: built and compiled once (decision 286).
/** A contract's refund requests, newest first. */
const refundRows = prepared((db, contractId: number) =>
  db.selectFrom('refund_request').selectAll().where('contract_id', '=', contractId).orderBy('id', 'desc'),
)
/** A contract's installments whose money is held, with what was paid for each. */
const heldInstallments = prepared((db, contractId: number) =>
  db
    .selectFrom('installment as i')
    .innerJoin('payment_installment as pi', (j) =>
      j.onRef('pi.installment_id', '=', 'i.id').on('pi.applied', '=', 1),
    )
    .select(['i.id', 'i.status', 'i.refunded_minor', 'pi.amount_minor'])
    .where('i.contract_id', '=', contractId)
    .where('i.status', 'in', refundableStates),
)

const requestRow = (trx: Trx | DB, id: number) =>
  trx.selectFrom('refund_request').selectAll().where('id', '=', id).executeTakeFirst()

export function createRefunds({
  db,
  dialect,
  gateways,
  responseDays,
  autoReleaseDays,
  work,
  release,
}: {
  db: DB
  dialect: Dialect
  gateways: Record<string, Gateway>
  responseDays: number
  autoReleaseDays: number
  work: Work
  release: MoneyMover['release']
}) {
  const chatEvent = (
    trx: Trx,
    event: ChatEvent,
    r: { project_id: number; freelancer_id: number },
    actorId: number | null,
  ) =>
    enqueue(trx, CHAT_EVENT_TOPIC, {
      event,
      projectId: r.project_id,
      freelancerId: r.freelancer_id,
      actorId,
    } satisfies ChatEventPayload)
  /** A notification in the recipients' language from locales/<lng>/refunds.json `notify.<kind>`. */
  const tell = async (
    trx: Trx,
    userIds: number[],
    kind: string,
    projectId: number,
    params: Record<string, string>,
  ) => {
    const e = inNamespace('refunds', notify(userIds, kind, projectId, 'Project', params))
    await enqueue(trx, e.topic, e.payload)
  }
  const titles = async (trx: Trx, r: { project_id: number; installment_id: number }) => {
    const project = await trx
      .selectFrom('project')
      .select('title')
      .where('id', '=', r.project_id)
      .executeTakeFirstOrThrow()
    const i = await trx
      .selectFrom('installment')
      .select('title')
      .where('id', '=', r.installment_id)
      .executeTakeFirstOrThrow()
    return { title: project.title, installment: i.title }
  }

  /**
   * Money goes back: `priceMinor` of the installment's price and its share of the client's fee
   * leave the client's held money for the gateway's clearing, once (ref refund:<request>). All of
   * the price refunded sends the installment back to awaiting funding.
   */
  async function moveBack(trx: Trx, r: RequestRow, priceMinor: number) {
    const held = await heldFor(trx, r.installment_id)
    if (!held) throw conflict('Nothing is held for this installment')
    if (priceMinor > held.priceLeft)
      throw badRequest('amount', `must be at most ${held.priceLeft}, what is held for the installment`)
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
  async function sendBack(requestId: number, settled?: Settled) {
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
    if (status === 'failed') {
      // The card could not take it back: the money is the client's again, held (decision 180);
      // support follows it up. The refund's posting stays; this reverses it.
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
      await restoreInstallment(trx, r)
    }
    await trx
      .updateTable('refund_request')
      .set({ gateway_status: status, gateway_ref: gatewayRef ?? r.gateway_ref, updated_at: nowIso() })
      .where('id', '=', r.id)
      .execute()
    await settled?.(trx, status)
    return true
  }

  /**
   * A failed refund's money is held again, so the installment must say so (decision 234): a partial
   * refund's part counts as held again; a full refund had sent it back to awaiting funding, so it is
   * funded again by the same payment, unless a new payment funded it meanwhile (then the money held
   * again stays the client's and support follows it up). An installment a dispute settled stays
   * released: what failed to go back is the client's held money.
   */
  async function restoreInstallment(trx: Trx, r: RequestRow) {
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
  async function applyEvent(trx: Trx, gateway: string, event: GatewayEvent) {
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
    return settleAtGateway(trx, id, event.type === 'refund.succeeded' ? 'succeeded' : 'failed', null)
  }

  /** The request's parties: its client or freelancer may see it (404 for anyone else). */
  async function mine(caller: Caller, requestId: number) {
    const r = await requestRow(db, requestId)
    if (!r || (r.client_id !== caller.userId && r.freelancer_id !== caller.userId))
      throw notFound('Refund request')
    return r
  }

  /** Locks the contract and the installment, then reads the request again: what is decided is decided on fresh rows. */
  async function locked(trx: Trx, r: RequestRow) {
    await lockRow(trx, dialect, 'contract', r.contract_id)
    const i = (await lockRow(trx, dialect, 'installment', r.installment_id))!
    return { i, r: (await requestRow(trx, r.id))! }
  }

  /** RefundRequest/{projectId}/{installmentId}/{amount}: the client asks for `amount` of the installment's price back. */
  async function request(
    caller: Caller,
    input: { projectId: number; installmentId: number; amount: number; reason: string },
  ) {
    const id = await db.transaction().execute(async (trx) => {
      const contract = await work.contractForPayment(trx, input.projectId)
      if (!contract || contract.clientId !== caller.userId) throw notFound('Contract')
      if (!contract.installments.some((i) => i.id === input.installmentId))
        throw badRequest('installmentId', 'must be an installment of this contract')
      const i = (await lockRow(trx, dialect, 'installment', input.installmentId))!
      if (!refundableStates.includes(i.status as InstallmentState))
        throw conflict(
          `The installment is ${i.status.replace('_', ' ')}; only money held for a funded installment not yet released can be refunded`,
          i.status,
        )
      if (await activeRefund(trx, i.id))
        throw conflict('A refund request for this installment is already open or disputed')
      const held = await heldFor(trx, i.id)
      if (!held) throw conflict('Nothing is held for this installment')
      if (input.amount > held.priceLeft)
        throw badRequest('amount', `must be at most ${held.priceLeft}, what is held for the installment`)
      const now = new Date()
      const row = await trx
        .insertInto('refund_request')
        .values({
          installment_id: i.id,
          active_installment_id: i.id,
          contract_id: contract.id,
          project_id: input.projectId,
          payment_id: held.payment_id,
          client_id: contract.clientId,
          freelancer_id: contract.freelancerId,
          status: 'open',
          amount_minor: input.amount,
          currency: held.currency,
          reason: input.reason,
          respond_by: new Date(now.getTime() + responseDays * DAY).toISOString(),
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await tell(trx, [contract.freelancerId], 'refundRequested', input.projectId, {
        title: contract.title,
        installment: i.title,
      })
      await chatEvent(
        trx,
        'refundRequested',
        { project_id: input.projectId, freelancer_id: contract.freelancerId },
        caller.userId,
      )
      return row.id
    })
    return out((await requestRow(db, id))!)
  }

  /** The freelancer accepts: the money goes back at once (in the acceptance's transaction), the gateway is asked after commit. */
  async function accept(caller: Caller, requestId: number) {
    const found = await mine(caller, requestId)
    if (found.freelancer_id !== caller.userId) throw forbidden()
    await db.transaction().execute(async (trx) => {
      const { r } = await locked(trx, found)
      if (r.status !== 'open')
        throw conflict(`The refund request is ${r.status}; it can no longer be accepted`, r.status)
      await trx
        .updateTable('refund_request')
        .set({ status: 'accepted', active_installment_id: null, updated_at: nowIso() })
        .where('id', '=', r.id)
        .where('status', '=', 'open')
        .execute()
      await moveBack(trx, r, r.amount_minor)
      await tell(trx, [r.client_id], 'refundAccepted', r.project_id, await titles(trx, r))
      await chatEvent(trx, 'refundAccepted', r, caller.userId)
    })
    await sendBack(requestId)
    return out((await requestRow(db, requestId))!)
  }

  /** The freelancer declines, saying why; the client may then open a dispute. */
  async function decline(caller: Caller, requestId: number, reason: string) {
    const found = await mine(caller, requestId)
    if (found.freelancer_id !== caller.userId) throw forbidden()
    await db.transaction().execute(async (trx) => {
      const { r } = await locked(trx, found)
      if (r.status !== 'open')
        throw conflict(`The refund request is ${r.status}; it can no longer be declined`, r.status)
      await trx
        .updateTable('refund_request')
        .set({
          status: 'declined',
          active_installment_id: null,
          decline_reason: reason,
          updated_at: nowIso(),
        })
        .where('id', '=', r.id)
        .execute()
      await tell(trx, [r.client_id], 'refundDeclined', r.project_id, await titles(trx, r))
      await chatEvent(trx, 'refundDeclined', r, caller.userId)
    })
    return out((await requestRow(db, requestId))!)
  }

  /** The client opens a dispute over a declined request, or one left unanswered past its deadline: the installment is frozen. */
  async function dispute(caller: Caller, requestId: number) {
    const found = await mine(caller, requestId)
    if (found.client_id !== caller.userId) throw forbidden()
    await db.transaction().execute(async (trx) => {
      const { r, i } = await locked(trx, found)
      if (!disputable(r))
        throw conflict(
          r.status === 'open'
            ? `The freelancer has until ${r.respond_by} to answer`
            : `The refund request is ${r.status}; it cannot be disputed`,
          r.status,
        )
      if (!refundableStates.includes(i.status as InstallmentState))
        throw conflict(
          `The installment is ${i.status.replace('_', ' ')}; nothing is held to dispute`,
          i.status,
        )
      const other = await activeRefund(trx, r.installment_id)
      if (other && other.id !== r.id) throw conflict('Another refund request for this installment is open')
      await trx
        .updateTable('refund_request')
        .set({ status: 'disputed', active_installment_id: r.installment_id, updated_at: nowIso() })
        .where('id', '=', r.id)
        .execute()
      await tell(trx, [r.freelancer_id], 'refundDisputed', r.project_id, await titles(trx, r))
    })
    return out((await requestRow(db, requestId))!)
  }

  /** The amounts of a decision, checked against what is held now (never trusted from the browser). */
  type Amounts = { refundMinor: number; releaseMinor: number }
  type Within = (trx: Trx, decided: Amounts & { currency: string; requestId: number }) => Promise<void>

  /**
   * An admin decides a disputed installment: `refundMinor` of the price left goes back to the
   * client, `releaseMinor` is released to the freelancer (less the platform fee); together they are
   * exactly the price still held. One transaction, in which `within` (the complaint's resolution
   * and the admin's audit row) runs too; the refund goes to the gateway after commit.
   */
  async function decideDispute(
    installmentId: number,
    decision: Amounts,
    adminId: number,
    reason: string,
    within?: Within,
  ) {
    const integer = (field: string, v: number) => {
      if (!Number.isSafeInteger(v) || v < 0)
        throw badRequest(field, 'must be a whole number of minor units, 0 or more')
    }
    integer('refundMinor', decision.refundMinor)
    integer('releaseMinor', decision.releaseMinor)
    const found = await db
      .selectFrom('refund_request')
      .selectAll()
      .where('active_installment_id', '=', installmentId)
      .where('status', '=', 'disputed')
      .executeTakeFirst()
    if (!found) throw notFound('Dispute')
    return decide(
      found,
      (held) => {
        if (decision.refundMinor + decision.releaseMinor !== held)
          throw badRequest(
            'releaseMinor',
            `refund and release must add up to ${held}, what is held for the installment`,
          )
        return decision
      },
      adminId,
      reason,
      within,
    )
  }

  async function decide(
    found: RequestRow,
    amountsFor: (held: number) => Amounts,
    adminId: number,
    reason: string,
    within?: Within,
  ) {
    if (!reason.trim()) throw badRequest('reason', 'is required')
    const decision = await db.transaction().execute(async (trx) => {
      const { r, i } = await locked(trx, found)
      if (r.status !== 'disputed')
        throw conflict(`The refund request is ${r.status}; the dispute was decided`, r.status)
      const held = (await heldFor(trx, r.installment_id))!
      const decision = amountsFor(held.priceLeft)
      await trx
        .updateTable('refund_request')
        .set({
          status: 'decided',
          active_installment_id: null,
          decided_by: adminId,
          decision_note: reason,
          amount_minor: decision.refundMinor,
          updated_at: nowIso(),
        })
        .where('id', '=', r.id)
        .execute()
      if (decision.refundMinor > 0)
        await moveBack(trx, { ...r, amount_minor: decision.refundMinor }, decision.refundMinor)
      if (decision.releaseMinor > 0) {
        const contract = await trx
          .selectFrom('contract')
          .selectAll()
          .where('id', '=', r.contract_id)
          .executeTakeFirstOrThrow()
        await release(trx, {
          installmentId: r.installment_id,
          contractId: r.contract_id,
          clientId: r.client_id,
          freelancerId: r.freelancer_id,
          amountMinor: decision.releaseMinor,
          currency: contract.currency,
        })
        await transitionInstallment(trx, {
          id: i.id,
          current: i.status as InstallmentState,
          action: 'settle',
          actor: 'system',
          actorId: adminId,
          projectId: r.project_id,
          note: reason,
        })
      }
      await tell(trx, [r.client_id, r.freelancer_id], 'disputeDecided', r.project_id, await titles(trx, r))
      await chatEvent(trx, 'disputeDecided', r, adminId)
      await within?.(trx, { ...decision, currency: r.currency, requestId: r.id })
      return decision
    })
    if (decision.refundMinor > 0) await sendBack(found.id)
    return out((await requestRow(db, found.id))!)
  }

  /**
   * A complaint about a funded installment not yet released is a dispute (decision 230): in the
   * complaint's transaction its money is held until an admin decides. An open refund request for it
   * becomes this dispute; one already disputed is linked to the complaint unless another complaint
   * holds it. Returns whether the complaint now holds the money.
   */
  async function holdForComplaint(trx: Trx, installmentId: number, complaintId: number, title: string) {
    const contractId = (
      await trx
        .selectFrom('installment')
        .select('contract_id')
        .where('id', '=', installmentId)
        .executeTakeFirstOrThrow()
    ).contract_id
    const c = (await lockRow(trx, dialect, 'contract', contractId))!
    const i = (await lockRow(trx, dialect, 'installment', installmentId))!
    if (!refundableStates.includes(i.status as InstallmentState)) return false
    const held = await heldFor(trx, installmentId)
    if (!held) return false
    const active = await trx
      .selectFrom('refund_request')
      .selectAll()
      .where('active_installment_id', '=', installmentId)
      .executeTakeFirst()
    if (active?.complaint_id) return false
    if (active) {
      await trx
        .updateTable('refund_request')
        .set({ status: 'disputed', complaint_id: complaintId, updated_at: nowIso() })
        .where('id', '=', active.id)
        .execute()
    } else {
      const now = nowIso()
      await trx
        .insertInto('refund_request')
        .values({
          installment_id: i.id,
          active_installment_id: i.id,
          contract_id: c.id,
          project_id: c.project_id,
          payment_id: held.payment_id,
          client_id: c.client_id,
          freelancer_id: c.freelancer_id,
          status: 'disputed',
          amount_minor: held.priceLeft,
          currency: held.currency,
          reason: title,
          respond_by: now,
          complaint_id: complaintId,
          created_at: now,
          updated_at: now,
        })
        .execute()
    }
    return true
  }

  /** The dispute a complaint opened, with what is held for it now (null when the complaint holds no money). */
  async function disputeOf(complaintId: number) {
    const r = await db
      .selectFrom('refund_request')
      .selectAll()
      .where('complaint_id', '=', complaintId)
      .orderBy('id', 'desc')
      .executeTakeFirst()
    if (!r) return null
    const held = await heldFor(db, r.installment_id)
    const decided = r.status === 'decided'
    return {
      status: decided ? ('decided' as const) : ('held' as const),
      heldMinor: decided ? 0 : (held?.priceLeft ?? 0),
      currency: r.currency,
      refundedMinor: decided ? r.amount_minor : null,
      decisionNote: r.decision_note,
    }
  }

  /** The admin decides the complaint's dispute: all released, all refunded, or split with `refundMinor` back (checked against what is held). */
  async function decideComplaint(
    complaintId: number,
    outcome: 'release' | 'refund' | 'split',
    refundMinor: number | undefined,
    adminId: number,
    reason: string,
    within: Within,
  ) {
    const found = await db
      .selectFrom('refund_request')
      .selectAll()
      .where('complaint_id', '=', complaintId)
      .orderBy('id', 'desc')
      .executeTakeFirst()
    if (!found) throw notFound('Dispute')
    return decide(
      found,
      (held) => {
        if (outcome === 'release') return { refundMinor: 0, releaseMinor: held }
        if (outcome === 'refund') return { refundMinor: held, releaseMinor: 0 }
        if (refundMinor === undefined || refundMinor < 1 || refundMinor >= held)
          throw badRequest(
            'refundMinor',
            `must be more than 0 and less than ${held}, what is held for the installment`,
          )
        return { refundMinor, releaseMinor: held - refundMinor }
      },
      adminId,
      reason,
      within,
    )
  }

  const disputable = (r: RequestRow) =>
    r.status === 'declined' || (r.status === 'open' && r.respond_by < nowIso())

  function out(r: RequestRow) {
    return {
      id: r.id,
      projectId: r.project_id,
      installmentId: r.installment_id,
      status: r.status as RefundStatus,
      amountMinor: r.amount_minor,
      feeMinor: r.fee_minor,
      currency: r.currency,
      reason: r.reason,
      declineReason: r.decline_reason,
      respondBy: r.respond_by,
      overdue: r.status === 'open' && r.respond_by < nowIso(),
      canDispute: disputable(r),
      gatewayStatus: r.gateway_status as 'pending' | 'succeeded' | 'failed' | null,
      decisionNote: r.decision_note,
      complaintId: r.complaint_id,
      createdAt: r.created_at,
    }
  }

  /** A contract's refund requests, newest first, and what may still be asked back per installment (its client and freelancer). */
  async function list(caller: Caller, projectId: number) {
    // The page's own reading of the contract when it has one (decision 281).
    const contract = await readContractOfProject(db, projectId)
    if (!contract || (contract.client_id !== caller.userId && contract.freelancer_id !== caller.userId))
      throw notFound('Contract')
    const [rows, installments] = await Promise.all([
      refundRows(db, contract.id),
      heldInstallments(db, contract.id),
    ])
    const active = new Set(rows.filter((r) => r.active_installment_id).map((r) => r.installment_id))
    return {
      data: rows.map(out),
      refundable: installments.map((i) => ({
        installmentId: i.id,
        refundableMinor: i.amount_minor - i.refunded_minor,
        open: active.has(i.id),
      })),
      responseDays,
    }
  }

  /**
   * The periodic job (decision 183): submissions left without approval or a request for changes
   * for AUTO_RELEASE_DAYS are approved and released; refunds whose gateway was never asked (a
   * crash after commit) are sent again. Safe on many instances: each release locks its rows and
   * checks the state again (projects.autoRelease), and the release's ledger ref posts once.
   */
  async function sweep(now = new Date()) {
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
    for (const { id } of unsent) await sendBack(id).catch(() => undefined)
    return { released }
  }

  /** Refunds sent back but not confirmed since before `olderThan` (reconciliation asks again with the same refund id). */
  const stuck = (olderThan: string) =>
    db
      .selectFrom('refund_request')
      .select(['id', 'amount_minor', 'fee_minor', 'currency', 'updated_at'])
      .where('gateway_status', '=', 'pending')
      .where('updated_at', '<', olderThan)
      .orderBy('id')
      .limit(200)
      .execute()

  return {
    request,
    accept,
    decline,
    dispute,
    decideDispute,
    holdForComplaint,
    disputeOf,
    decideComplaint,
    list,
    applyEvent,
    sweep,
    stuck,
    resend: sendBack,
  }
}

export type Refunds = ReturnType<typeof createRefunds>
