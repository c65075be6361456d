import { notFound } from '#server/api/errors.ts'
import type { DB } from '#server/db/database.ts'
import type { InstallmentState } from '../projects/machines.ts'
import { conflict, lockRow, transitionInstallment } from '../projects/transition.ts'
import type { Trx } from './ledger.ts'
import { moveBack, sendBack } from './refund-money.ts'
import { chatEvent, tellDecided } from './refund-notices.ts'
import {
  badRequest,
  decideBy,
  heldFor,
  heldInstallments,
  locked,
  nowIso,
  presentRequest,
  refundableStates,
  type RefundDeps,
  type RequestRow,
} from './refund-rows.ts'

// Disputes (decisions 181, 230–231, 313): an installment whose refund was declined or left
// unanswered, or that a complaint holds, is frozen until an admin decides on the dispute's ticket
// how much of the money held goes back to the client and how much is released to the freelancer.

/** The amounts of a decision, checked against what is held now (never trusted from the browser). */
type Amounts = { refundMinor: number; releaseMinor: number }
type Within = (trx: Trx, decided: Amounts & { currency: string; requestId: number }) => Promise<void>

/**
 * An admin decides a dispute on its ticket: all released, all refunded, or split with
 * `refundMinor` back (checked against what is held now, never trusted from the browser). One
 * transaction, in which `within` (the ticket's resolution and the admin's audit row) runs too; the
 * refund goes to the gateway after commit.
 */
export async function decideComplaint(
  deps: RefundDeps,
  complaintId: number,
  outcome: 'release' | 'refund' | 'split',
  refundMinor: number | undefined,
  adminId: number,
  reason: string,
  within: Within,
) {
  const found = await deps.db
    .selectFrom('refund_request')
    .selectAll()
    .where('complaint_id', '=', complaintId)
    .orderBy('id', 'desc')
    .executeTakeFirst()
  if (!found) throw notFound('Dispute')
  const amountsFor = (held: number): Amounts => {
    if (outcome === 'release') return { refundMinor: 0, releaseMinor: held }
    if (outcome === 'refund') return { refundMinor: held, releaseMinor: 0 }
    if (refundMinor === undefined || refundMinor < 1 || refundMinor >= held)
      throw badRequest(
        'refundMinor',
        `must be more than 0 and less than ${held}, what is held for the installment`,
      )
    return { refundMinor, releaseMinor: held - refundMinor }
  }
  return decide(deps, found, amountsFor, adminId, reason, within)
}

async function decide(
  deps: RefundDeps,
  found: RequestRow,
  amountsFor: (held: number) => Amounts,
  adminId: number,
  reason: string,
  within?: Within,
) {
  const { db, dialect } = deps
  if (!reason.trim()) throw badRequest('reason', 'is required')
  const decision = await db.transaction().execute(async (trx) => {
    const { r, i } = await locked(trx, dialect, found)
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
      await moveBack(trx, dialect, { ...r, amount_minor: decision.refundMinor }, decision.refundMinor)
    if (decision.releaseMinor > 0)
      await releaseDecided(deps, trx, r, i, decision.releaseMinor, adminId, reason)
    await tellDecided(trx, r, decision)
    await chatEvent(trx, 'disputeDecided', r, adminId)
    await within?.(trx, { ...decision, currency: r.currency, requestId: r.id })
    return decision
  })
  if (decision.refundMinor > 0) await sendBack(deps, found.id)
  return presentRequest(db, found.id)
}

/** The part of a decision released to the freelancer: the money moves and the installment is settled. */
async function releaseDecided(
  { release }: RefundDeps,
  trx: Trx,
  r: RequestRow,
  i: { id: number; status: string },
  releaseMinor: number,
  adminId: number,
  reason: string,
) {
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
    amountMinor: releaseMinor,
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

/**
 * A complaint about a funded installment not yet released is a dispute (decision 230): in the
 * complaint's transaction its money is held until an admin decides. An open refund request for it
 * becomes this dispute; one already disputed is linked to the complaint unless another complaint
 * holds it. Returns whether the complaint now holds the money.
 */
export async function holdForComplaint(
  deps: RefundDeps,
  trx: Trx,
  installmentId: number,
  complaintId: number,
  title: string,
) {
  const contractId = (
    await trx
      .selectFrom('installment')
      .select('contract_id')
      .where('id', '=', installmentId)
      .executeTakeFirstOrThrow()
  ).contract_id
  const c = (await lockRow(trx, deps.dialect, 'contract', contractId))!
  const i = (await lockRow(trx, deps.dialect, 'installment', installmentId))!
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
      .set({ status: 'disputed', complaint_id: complaintId, decide_by: decideBy(deps), updated_at: nowIso() })
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
        decide_by: decideBy(deps),
        created_at: now,
        updated_at: now,
      })
      .execute()
  }
  return true
}

/** The dispute a complaint opened, with what is held for it now (null when the complaint holds no money). */
export async function disputeOf(db: DB, complaintId: number) {
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
    decideBy: decided ? null : r.decide_by,
    installmentId: r.installment_id,
  }
}

/** A contract's installments whose money is held and not yet disputed or asked back: what a complaint may hold (decision 313). */
export async function holdable(db: DB, contractId: number) {
  const [held, active, contract] = await Promise.all([
    heldInstallments(db, contractId),
    db
      .selectFrom('refund_request')
      .select('active_installment_id')
      .where('contract_id', '=', contractId)
      .where('active_installment_id', 'is not', null)
      .execute(),
    db.selectFrom('contract').select('currency').where('id', '=', contractId).executeTakeFirstOrThrow(),
  ])
  const busy = new Set(active.map((r) => r.active_installment_id))
  return held
    .filter((i) => !busy.has(i.id) && i.amount_minor > i.refunded_minor)
    .map((i) => ({
      installmentId: i.id,
      title: i.title,
      heldMinor: i.amount_minor - i.refunded_minor,
      currency: contract.currency,
    }))
}
