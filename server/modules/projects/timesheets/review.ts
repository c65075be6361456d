import type { Caller } from '#server/api/handler.ts'
import { forbidden, notFound } from '#server/api/errors.ts'
import { paymentContract, projectTitle, type PaymentContract } from '../funding.ts'
import { conflict, lockRow, recordCreated, type Trx } from '../transition.ts'
import { nowIso, type ContractRow } from '../shared.ts'
import { announceWeek } from './notices.ts'
import { hourlyContract, readTimesheet, type WeekRow } from './rows.ts'
import { dayOf, editableStates, priceOf, weekTitle, type WeekState } from './rules.ts'
import type { LogDeps } from './log.ts'

// A week's review (decision 324): the freelancer submits a week that has begun and holds time; the
// client approves it or disputes it with a reason within TIMESHEET_REVIEW_DAYS, after which the
// system approves it (sweep). Approval is taken once (compare-and-set on `submitted`) and turns the
// week into one installment of the contract, priced hours × rate, which the client then pays.

/** `contract`: the week's contract and installment as payments prices them, from the approval's rows. */
type WeekCharge = {
  clientId: number
  projectId: number
  installmentIds: number[]
  contract?: PaymentContract
}
/**
 * Records the charge of an approved week's installment to the client's saved card, or tells them to
 * pay it, in the approval's transaction; answers what sends it to the gateway after the commit
 * (payments/saved-methods.ts).
 */
export type ChargeWeek = (trx: Trx, week: WeekCharge) => Promise<() => Promise<unknown>>
export type ReviewDeps = LogDeps & {
  publicUrl: string
  charge?: ChargeWeek
  log?: (message: string, err: unknown) => void
}

/** After the approval's commit: the week's installment is charged; a failure leaves it for the checkout. */
export async function chargeWeek(deps: ReviewDeps, send: (() => Promise<unknown>) | undefined) {
  await send?.().catch((error) => deps.log?.('charging an approved timesheet week failed', error))
}

async function lockedContract(
  deps: ReviewDeps,
  trx: Trx,
  caller: Caller,
  projectId: number,
  side: 'client' | 'freelancer',
) {
  const found = await hourlyContract(trx, caller, projectId)
  if ((side === 'client' ? found.client_id : found.freelancer_id) !== caller.userId) throw forbidden()
  const contract = (await lockRow(trx, deps.dialect, 'contract', found.id))!
  if (contract.status !== 'active')
    throw conflict(`The contract is ${contract.status}; its timesheet is closed`, contract.status)
  return contract
}

export async function lockedWeek(deps: ReviewDeps, trx: Trx, contract: ContractRow, weekId: number) {
  let q = trx
    .selectFrom('timesheet_week')
    .selectAll()
    .where('id', '=', weekId)
    .where('contract_id', '=', contract.id)
  if (deps.dialect === 'postgres') q = q.forUpdate()
  const week = await q.executeTakeFirst()
  if (!week) throw notFound('Week')
  return week
}

/** Moves a week from `from` with these values; a row changed meanwhile is a 409. */
async function moveWeek(trx: Trx, week: WeekRow, from: WeekState[], set: Partial<WeekRow>) {
  const row = await trx
    .updateTable('timesheet_week')
    .set({ ...set, updated_at: nowIso() })
    .where('id', '=', week.id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst()
  if (!row) throw conflict(`The week of ${week.week_start} changed meanwhile; reload and try again`)
  return row
}

export async function submitWeek(deps: ReviewDeps, caller: Caller, projectId: number, weekId: number) {
  const day = await deps.db.transaction().execute(async (trx) => {
    const contract = await lockedContract(deps, trx, caller, projectId, 'freelancer')
    const week = await lockedWeek(deps, trx, contract, weekId)
    if (!editableStates.includes(week.status as WeekState))
      throw conflict(
        `The week of ${week.week_start} is ${week.status}; it was already submitted`,
        week.status,
      )
    if (week.week_start > dayOf(new Date())) throw conflict('timesheets:errors.notBegun', week.status)
    const sum = await trx
      .selectFrom('timesheet_entry')
      .select((eb) => eb.fn.sum<number>('quarters').as('q'))
      .where('week_id', '=', week.id)
      .executeTakeFirst()
    const quarters = Number(sum?.q ?? 0)
    if (!quarters) throw conflict('timesheets:errors.empty', week.status)
    const moved = await moveWeek(trx, week, [...editableStates], {
      status: 'submitted',
      quarters,
      submitted_at: nowIso(),
    })
    const title = await projectTitle(trx, projectId)
    await announceWeek(trx, deps.publicUrl, 'submitted', {
      contract,
      week: moved,
      actorId: caller.userId,
      title,
    })
    return week.week_start
  })
  return readTimesheet(deps, caller, projectId, day)
}

/** The installment an approved week becomes: last of the contract, awaiting payment; the contract's value grows by it. */
async function weekInstallment(
  trx: Trx,
  contract: ContractRow,
  week: WeekRow,
  amountMinor: number,
  actorId: number | null,
) {
  const last = await trx
    .selectFrom('installment')
    .select((eb) => eb.fn.max('position').as('n'))
    .where('contract_id', '=', contract.id)
    .executeTakeFirst()
  const now = nowIso()
  const row = await trx
    .insertInto('installment')
    .values({
      contract_id: contract.id,
      position: Number(last?.n ?? 0) + 1,
      title: weekTitle(week.week_start, week.quarters),
      amount_minor: amountMinor,
      currency: contract.currency,
      due_date: null,
      status: 'pending',
      submission_note: null,
      feedback: null,
      created_at: now,
      updated_at: now,
    })
    .returning(['id', 'position', 'title', 'amount_minor', 'currency', 'status'])
    .executeTakeFirstOrThrow()
  await recordCreated(
    trx,
    'installment',
    row.id,
    'pending',
    contract.project_id,
    actorId,
    [],
    week.week_start,
  )
  await trx
    .updateTable('contract')
    .set({ amount_minor: contract.amount_minor + amountMinor, updated_at: now })
    .where('id', '=', contract.id)
    .execute()
  return row
}

/**
 * Approves a submitted week (the client, or the system when `actorId` is null) in the caller's
 * transaction, with its charge recorded in it: answers what sends the charge after the commit.
 */
export async function approveLocked(
  deps: ReviewDeps,
  trx: Trx,
  contract: ContractRow,
  week: WeekRow,
  actorId: number | null,
) {
  const amountMinor = priceOf(week.quarters, contract.hourly_rate_minor ?? 0)
  const installment = await weekInstallment(trx, contract, week, amountMinor, actorId)
  const moved = await moveWeek(trx, week, ['submitted'], {
    status: 'approved',
    decided_at: nowIso(),
    decided_by: actorId,
    amount_minor: amountMinor,
    installment_id: installment.id,
  })
  const title = await projectTitle(trx, contract.project_id)
  await announceWeek(trx, deps.publicUrl, actorId === null ? 'autoApproved' : 'approved', {
    contract,
    week: moved,
    actorId,
    title,
  })
  // The contract is locked and its installment made here: the charge is priced from them, not read again.
  const charge = {
    clientId: contract.client_id,
    projectId: contract.project_id,
    installmentIds: [installment.id],
    contract: paymentContract(contract, contract.project_id, title, [installment]),
  }
  return deps.charge ? deps.charge(trx, charge) : async () => {}
}

async function decideWeek(
  deps: ReviewDeps,
  caller: Caller,
  projectId: number,
  weekId: number,
  reason?: string,
) {
  const { day, send } = await deps.db.transaction().execute(async (trx) => {
    const contract = await lockedContract(deps, trx, caller, projectId, 'client')
    const week = await lockedWeek(deps, trx, contract, weekId)
    if (week.status !== 'submitted')
      throw conflict(
        `The week of ${week.week_start} is ${week.status}; it is not waiting for an answer`,
        week.status,
      )
    if (reason === undefined)
      return { day: week.week_start, send: await approveLocked(deps, trx, contract, week, caller.userId) }
    const moved = await moveWeek(trx, week, ['submitted'], {
      status: 'disputed',
      dispute_reason: reason,
      decided_at: nowIso(),
      decided_by: caller.userId,
    })
    const title = await projectTitle(trx, projectId)
    await announceWeek(trx, deps.publicUrl, 'disputed', {
      contract,
      week: moved,
      actorId: caller.userId,
      title,
    })
    return { day: week.week_start, send: undefined }
  })
  await chargeWeek(deps, send)
  return readTimesheet(deps, caller, projectId, day)
}

export const approveWeek = (deps: ReviewDeps, caller: Caller, projectId: number, weekId: number) =>
  decideWeek(deps, caller, projectId, weekId)
export const disputeWeek = (
  deps: ReviewDeps,
  caller: Caller,
  projectId: number,
  weekId: number,
  reason: string,
) => decideWeek(deps, caller, projectId, weekId, reason)
