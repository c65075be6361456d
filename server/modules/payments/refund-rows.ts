import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { badRequest, notFound } from '#server/api/errors.ts'
import { refundableStates } from '../projects/machines.ts'
import type { MoneyMover, ProjectsService } from '../projects/service.ts'
import { lockRow } from '../projects/transition.ts'
import type { Trx } from './ledger.ts'
import { feeLeft } from './fees.ts'
import type { Gateway } from './gateways/gateway.ts'

// Defined once in the API's errors; re-exported for this module's use cases.
export { badRequest }

// A refund request's row and what is held for its installment: read, locked and shown the same
// way by every refund use case (requests, disputes, the gateway's answers).

export type RefundStatus = 'open' | 'accepted' | 'declined' | 'disputed' | 'decided'
export { refundableStates }
export const DAY = 86_400_000
export const nowIso = () => new Date().toISOString()
/** The id a gateway is given for a refund, and that its events carry back. */
export const refundToken = (id: number) => `refund_${id}`

/** What the refunds are given (index.ts). */
export interface RefundDeps {
  db: DB
  dialect: Dialect
  gateways: Record<string, Gateway>
  responseDays: number
  autoReleaseDays: number
  /** Days support has to decide a dispute once its money is held (decision 313). */
  disputeDecisionDays: number
  /** Files a disputed request's ticket in support's queue in the dispute's transaction, and answers its id (the complaints module's, given by server/api/services.ts). */
  fileDispute: (trx: Trx, request: RequestRow) => Promise<number>
  work: Pick<ProjectsService, 'contractForPayment' | 'autoRelease'>
  release: MoneyMover['release']
}

/** Runs in the transaction that records the gateway's answer (an admin's audit row, decision 252). */
export type Settled = (trx: Trx, status: 'succeeded' | 'failed') => Promise<void>

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

/** A contract's installments whose money is held, with what was paid for each. */
export const heldInstallments = (db: DB, contractId: number) =>
  db
    .selectFrom('installment as i')
    .innerJoin('payment_installment as pi', (j) =>
      j.onRef('pi.installment_id', '=', 'i.id').on('pi.applied', '=', 1),
    )
    .select(['i.id', 'i.title', 'i.status', 'i.refunded_minor', 'pi.amount_minor'])
    .where('i.contract_id', '=', contractId)
    .where('i.status', 'in', refundableStates)
    .execute()

/** A refund request that is open or disputed holds the installment: no release meanwhile. */
export async function activeRefund(trx: Trx, installmentId: number) {
  return trx
    .selectFrom('refund_request')
    .select(['id', 'status'])
    .where('active_installment_id', '=', installmentId)
    .executeTakeFirst()
}

export const requestRow = (trx: Trx | DB, id: number) =>
  trx.selectFrom('refund_request').selectAll().where('id', '=', id).executeTakeFirst()
export type RequestRow = NonNullable<Awaited<ReturnType<typeof requestRow>>>

/** The request's parties: its client or freelancer may see it (404 for anyone else). */
export async function partyRequest(db: DB, caller: Caller, requestId: number) {
  const r = await requestRow(db, requestId)
  if (!r || (r.client_id !== caller.userId && r.freelancer_id !== caller.userId))
    throw notFound('Refund request')
  return r
}

/** Locks the contract and the installment, then reads the request again: what is decided is decided on fresh rows. */
export async function locked(trx: Trx, dialect: Dialect, r: RequestRow) {
  await lockRow(trx, dialect, 'contract', r.contract_id)
  const i = (await lockRow(trx, dialect, 'installment', r.installment_id))!
  return { i, r: (await requestRow(trx, r.id))! }
}

/** When support is to have decided a dispute whose money is held from now (decision 313). */
export const decideBy = (deps: Pick<RefundDeps, 'disputeDecisionDays'>) =>
  new Date(Date.now() + deps.disputeDecisionDays * DAY).toISOString()

export const disputable = (r: RequestRow) =>
  r.status === 'declined' || (r.status === 'open' && r.respond_by < nowIso())

/** A refund request as its parties read it. */
export function presentRefund(r: RequestRow) {
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

/** The request as it is now, shown. */
export const presentRequest = async (db: DB, id: number) => presentRefund((await requestRow(db, id))!)
