import type { DB } from '#server/db/database.ts'
import { ApiError } from '#server/api/errors.ts'
import type { Trx } from '../transition.ts'
import { dayOf, hoursOf, weekStartOf, type OpenWeekState } from './rules.ts'

// What an hourly contract's timesheet holds that is not settled (decision 334): a week with time
// not yet submitted, a week submitted or disputed, or one approved and not paid. While one is open
// the client cannot mark the project completed; the contract's answer names the earliest, and this
// week's hours beside the weekly limit, so the pages explain instead of offering a refused move.

export interface HourlyProgress {
  thisWeekHours: number
  openWeek: { weekStart: string; status: OpenWeekState } | null
}

function openState(status: string, quarters: number, installment: string | null): OpenWeekState | null {
  if (status === 'submitted' || status === 'disputed') return status
  if (status === 'open') return quarters > 0 ? 'open' : null
  return installment === 'released' ? null : 'unpaid'
}

/** Each hourly contract's progress (contracts without a week get hours 0 and nothing open). */
export async function hourlyProgress(db: DB | Trx, contractIds: number[], today = new Date()) {
  const progress = new Map<number, HourlyProgress>(
    contractIds.map((id) => [id, { thisWeekHours: 0, openWeek: null }]),
  )
  if (!contractIds.length) return progress
  const weeks = await db
    .selectFrom('timesheet_week as w')
    .leftJoin('installment as i', 'i.id', 'w.installment_id')
    .select((eb) => [
      'w.contract_id',
      'w.week_start',
      'w.status',
      'i.status as installment_status',
      eb
        .selectFrom('timesheet_entry as e')
        .select((e) => e.fn.coalesce(e.fn.sum<number>('e.quarters'), e.lit(0)).as('q'))
        .whereRef('e.week_id', '=', 'w.id')
        .as('quarters'),
    ])
    .where('w.contract_id', 'in', contractIds)
    .orderBy('w.week_start')
    .execute()
  const thisWeek = weekStartOf(dayOf(today))
  for (const w of weeks) {
    const p = progress.get(w.contract_id)!
    const quarters = Number(w.quarters ?? 0)
    if (w.week_start === thisWeek) p.thisWeekHours = hoursOf(quarters)
    const status = openState(w.status, quarters, w.installment_status)
    if (status && !p.openWeek) p.openWeek = { weekStart: w.week_start, status }
  }
  return progress
}

/** Refuses completing an hourly contract while a week is open: 409 `timesheet_week_open`, naming the week. */
export async function refuseOpenWeek(trx: Trx, contractId: number) {
  const open = (await hourlyProgress(trx, [contractId])).get(contractId)!.openWeek
  if (!open) return
  throw new ApiError(
    409,
    'Conflict',
    `The timesheet's week of ${open.weekStart} is ${open.status}; settle it before completing the project`,
    { week: [open.weekStart], state: [open.status] },
    'timesheet_week_open',
  )
}
