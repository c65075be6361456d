import type { Caller } from '#server/api/handler.ts'
import { forbidden, notFound } from '#server/api/errors.ts'
import type { DB } from '#server/db/database.ts'
import type { InstallmentState } from '../projects/machines.ts'
import { readContractOfProject } from '../projects/reads.ts'
import { conflict, lockRow, recordActivity } from '../projects/transition.ts'
import type { Trx } from './ledger.ts'
import { moveBack, sendBack } from './refund-money.ts'
import { chatEvent, tell, titles } from './refund-notices.ts'
import {
  activeRefund,
  badRequest,
  DAY,
  decideBy,
  heldInstallments,
  disputable,
  heldFor,
  locked,
  nowIso,
  partyRequest,
  presentRefund,
  presentRequest,
  refundableStates,
  type RefundDeps,
} from './refund-rows.ts'

// Refund requests (decisions 180–182): the client asks for part or all of a held installment's
// price back; the freelancer accepts (the money goes back) or declines; a decline, or no answer
// in time, lets the client open a dispute that freezes the installment.

/** A contract's refund requests, newest first. */
const refundRows = (db: DB, contractId: number) =>
  db
    .selectFrom('refund_request')
    .selectAll()
    .where('contract_id', '=', contractId)
    .orderBy('id', 'desc')
    .execute()
/** RefundRequest/{projectId}/{installmentId}/{amount}: the client asks for `amount` of the installment's price back. */
export async function requestRefund(
  { db, dialect, work, responseDays }: RefundDeps,
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
    if (input.amount > held.priceLeft) throw badRequest('amount', 'refunds:errors.aboveHeld')
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
    const party = { project_id: input.projectId, freelancer_id: contract.freelancerId }
    await chatEvent(trx, 'refundRequested', party, caller.userId)
    // The amount is a fact the reader's screen words as money in their language (decision 321).
    await feed(trx, { id: row.id, project_id: input.projectId }, caller.userId, 'request', 'open', {
      params: { amountMinor: input.amount, currency: held.currency },
    })
    return row.id
  })
  return presentRequest(db, id)
}

/** Each step of a refund request is in the project's activity feed, named by who took it (issue 39). */
const feed = (
  trx: Trx,
  r: { id: number; project_id: number },
  actorId: number,
  action: 'request' | 'accept' | 'decline' | 'dispute',
  state: string,
  { note, params }: { note?: string; params?: { amountMinor: number; currency: string } } = {},
) => recordActivity(trx, r.project_id, actorId, 'refund', r.id, action, state, note, params)

/** The freelancer accepts: the money goes back at once (in the acceptance's transaction), the gateway is asked after commit. */
export async function acceptRefund(deps: RefundDeps, caller: Caller, requestId: number) {
  const { db, dialect } = deps
  const found = await partyRequest(db, caller, requestId)
  if (found.freelancer_id !== caller.userId) throw forbidden()
  await db.transaction().execute(async (trx) => {
    const { r } = await locked(trx, dialect, found)
    if (r.status !== 'open')
      throw conflict(`The refund request is ${r.status}; it can no longer be accepted`, r.status)
    await trx
      .updateTable('refund_request')
      .set({ status: 'accepted', active_installment_id: null, updated_at: nowIso() })
      .where('id', '=', r.id)
      .where('status', '=', 'open')
      .execute()
    await moveBack(trx, dialect, r, r.amount_minor)
    await tell(trx, [r.client_id], 'refundAccepted', r.project_id, await titles(trx, r))
    await chatEvent(trx, 'refundAccepted', r, caller.userId)
    await feed(trx, r, caller.userId, 'accept', 'accepted')
  })
  await sendBack(deps, requestId)
  return presentRequest(db, requestId)
}

/** The freelancer declines, saying why; the client may then open a dispute. */
export async function declineRefund(
  { db, dialect }: RefundDeps,
  caller: Caller,
  requestId: number,
  reason: string,
) {
  const found = await partyRequest(db, caller, requestId)
  if (found.freelancer_id !== caller.userId) throw forbidden()
  await db.transaction().execute(async (trx) => {
    const { r } = await locked(trx, dialect, found)
    if (r.status !== 'open')
      throw conflict(`The refund request is ${r.status}; it can no longer be declined`, r.status)
    await trx
      .updateTable('refund_request')
      .set({ status: 'declined', active_installment_id: null, decline_reason: reason, updated_at: nowIso() })
      .where('id', '=', r.id)
      .execute()
    await tell(trx, [r.client_id], 'refundDeclined', r.project_id, await titles(trx, r))
    await chatEvent(trx, 'refundDeclined', r, caller.userId)
    await feed(trx, r, caller.userId, 'decline', 'declined', { note: reason })
  })
  return presentRequest(db, requestId)
}

/**
 * The client opens a dispute over a declined request, or one left unanswered past its deadline:
 * the installment is frozen and the dispute is filed as a ticket in support's queue, with both
 * sides' statements, to be decided by a date (decision 313).
 */
export async function disputeRefund(deps: RefundDeps, caller: Caller, requestId: number) {
  const { db, dialect } = deps
  const found = await partyRequest(db, caller, requestId)
  if (found.client_id !== caller.userId) throw forbidden()
  await db.transaction().execute(async (trx) => {
    const { r, i } = await locked(trx, dialect, found)
    if (!disputable(r))
      throw conflict(
        r.status === 'open'
          ? `The freelancer has until ${r.respond_by} to answer`
          : `The refund request is ${r.status}; it cannot be disputed`,
        r.status,
      )
    if (!refundableStates.includes(i.status as InstallmentState))
      throw conflict(`The installment is ${i.status.replace('_', ' ')}; nothing is held to dispute`, i.status)
    const other = await activeRefund(trx, r.installment_id)
    if (other && other.id !== r.id) throw conflict('Another refund request for this installment is open')
    const complaintId = await deps.fileDispute(trx, r)
    await trx
      .updateTable('refund_request')
      .set({
        status: 'disputed',
        active_installment_id: r.installment_id,
        complaint_id: complaintId,
        decide_by: decideBy(deps),
        updated_at: nowIso(),
      })
      .where('id', '=', r.id)
      .execute()
    await feed(trx, r, caller.userId, 'dispute', 'disputed')
  })
  return presentRequest(db, requestId)
}

/** A contract's refund requests, newest first, and what may still be asked back per installment (its client and freelancer). */
export async function listRefunds({ db, responseDays }: RefundDeps, caller: Caller, projectId: number) {
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
    data: rows.map(presentRefund),
    refundable: installments.map((i) => ({
      installmentId: i.id,
      refundableMinor: i.amount_minor - i.refunded_minor,
      open: active.has(i.id),
    })),
    responseDays,
  }
}
