import type { Selectable } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Database } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { TIMESHEET_REVIEW_DAYS } from '../rules.ts'
import { readContractOfProject, readProject } from '../reads.ts'
import { conflict, type Trx } from '../transition.ts'
import { DAY, type ContractRow } from '../shared.ts'
import type { TimesheetOut, WeekOut, WeekState } from './contract.ts'
import { addDays, dayOf, editableStates, hoursOf, priceOf, weekStartOf } from './rules.ts'

// A timesheet as its two parties read it: the chosen week with its entries and every week logged.

export type WeekRow = Selectable<Database['timesheet_week']>
export type TimesheetDeps = { db: DB; clientFeeBps: number }

/** The project's hourly contract when the caller is one of its parties (404 for anyone else; 409 for a fixed-price one). */
export async function hourlyContract(db: DB | Trx, caller: Caller, projectId: number) {
  const contract = await readContractOfProject(db as DB, projectId)
  if (!contract || (contract.client_id !== caller.userId && contract.freelancer_id !== caller.userId))
    throw notFound('Contract')
  if (contract.billing !== 'hourly' || !contract.hourly_rate_minor)
    throw conflict('The contract is paid by installments; it has no timesheet', contract.billing)
  return contract
}

const feeOf = (amount: number, bps: number) => Math.round((amount * bps) / 10_000)

/** One week as the API shows it (a row, or an empty open week not yet written). */
function weekOf(
  row: WeekRow | undefined,
  weekStart: string,
  contract: ContractRow,
  quarters: number,
  installments: Map<number, string>,
  feeBps: number,
): WeekOut {
  const amountMinor =
    row?.amount_minor !== null && row?.amount_minor !== undefined
      ? Number(row.amount_minor)
      : priceOf(quarters, contract.hourly_rate_minor ?? 0)
  const submitted = row?.status === 'submitted' ? row.submitted_at : null
  return {
    id: row?.id ?? null,
    weekStart,
    weekEnd: addDays(weekStart, 6),
    status: (row?.status ?? 'open') as WeekState,
    hours: hoursOf(quarters),
    amountMinor,
    clientFeeMinor: feeOf(amountMinor, feeBps),
    submittedAt: row?.submitted_at ?? null,
    reviewDueAt: submitted
      ? new Date(new Date(submitted).getTime() + TIMESHEET_REVIEW_DAYS * DAY).toISOString()
      : null,
    decidedAt: row?.decided_at ?? null,
    autoApproved: row?.status === 'approved' && row.decided_by === null,
    disputeReason: row?.status === 'disputed' ? row.dispute_reason : null,
    installmentId: row?.installment_id ?? null,
    installmentStatus: row?.installment_id ? (installments.get(row.installment_id) ?? null) : null,
  }
}

/** The quarter hours logged per week of a contract. */
async function loggedQuarters(db: DB, weekIds: number[]) {
  if (!weekIds.length) return new Map<number, number>()
  const sums = await db
    .selectFrom('timesheet_entry')
    .select(['week_id', (eb) => eb.fn.sum<number>('quarters').as('q')])
    .where('week_id', 'in', weekIds)
    .groupBy('week_id')
    .execute()
  return new Map(sums.map((s) => [s.week_id, Number(s.q)]))
}

/** The timesheet of `projectId` for the week holding `day` (today when none), shown to `caller`. */
export async function readTimesheet(
  { db, clientFeeBps }: TimesheetDeps,
  caller: Caller,
  projectId: number,
  day?: string,
): Promise<TimesheetOut> {
  const contract = await hourlyContract(db, caller, projectId)
  const weekStart = weekStartOf(day ?? dayOf(new Date()))
  const [rows, project, deliverables, installments] = await Promise.all([
    db
      .selectFrom('timesheet_week')
      .selectAll()
      .where('contract_id', '=', contract.id)
      .orderBy('week_start', 'desc')
      .execute(),
    readProject(db, projectId),
    db
      .selectFrom('deliverable')
      .select(['id', 'number', 'title'])
      .where('contract_id', '=', contract.id)
      .orderBy('position')
      .execute(),
    db.selectFrom('installment').select(['id', 'status']).where('contract_id', '=', contract.id).execute(),
  ])
  const statuses = new Map(installments.map((i) => [i.id, i.status]))
  const logged = await loggedQuarters(
    db,
    rows.map((r) => r.id),
  )
  const show = (r: WeekRow | undefined, start: string) =>
    weekOf(r, start, contract, r ? (logged.get(r.id) ?? 0) : 0, statuses, clientFeeBps)
  const row = rows.find((r) => r.week_start === weekStart)
  const entries = row
    ? await db
        .selectFrom('timesheet_entry')
        .selectAll()
        .where('week_id', '=', row.id)
        .orderBy('work_date')
        .orderBy('id')
        .execute()
    : []
  const role = contract.client_id === caller.userId ? ('client' as const) : ('freelancer' as const)
  const state = (row?.status ?? 'open') as WeekState
  const active = contract.status === 'active'
  const named = new Map(deliverables.map((d) => [d.id, `${d.number} ${d.title}`]))
  return {
    projectId,
    contractId: contract.id,
    projectTitle: project?.title ?? '',
    contractStatus: contract.status,
    role,
    currency: contract.currency,
    hourlyRateMinor: contract.hourly_rate_minor ?? 0,
    weeklyLimitHours: contract.weekly_limit_hours,
    clientFeePercent: clientFeeBps / 100,
    reviewDays: TIMESHEET_REVIEW_DAYS,
    week: {
      ...show(row, weekStart),
      entries: entries.map((e) => ({
        id: e.id,
        date: e.work_date,
        hours: hoursOf(e.quarters),
        description: e.description,
        deliverableId: e.deliverable_id,
        deliverable: e.deliverable_id ? (named.get(e.deliverable_id) ?? null) : null,
      })),
      canEdit: active && role === 'freelancer' && editableStates.includes(state),
      canSubmit: active && role === 'freelancer' && editableStates.includes(state) && entries.length > 0,
      canDecide: active && role === 'client' && state === 'submitted',
    },
    weeks: rows.map((r) => show(r, r.week_start)),
    deliverables,
  }
}
