// Weekly timesheets' plain rules (decision 324): weeks start on Monday (UTC days), hours are kept in
// quarter hours, and a week's price is its hours times the contract's hourly rate. Plain data and
// functions, so the timesheet page imports them without the contract's zod (decision 316).

export const weekStates = ['open', 'submitted', 'disputed', 'approved'] as const
export type WeekState = (typeof weekStates)[number]
/** Why a week keeps an hourly contract from completing; `unpaid` is approved and not yet paid (decision 334). */
export const openWeekStates = ['open', 'submitted', 'disputed', 'unpaid'] as const
export type OpenWeekState = (typeof openWeekStates)[number]
/** States in which the freelancer may still add, change or remove entries. */
export const editableStates: readonly WeekState[] = ['open', 'disputed']
export const timesheetLimits = { description: 500, reason: 1_000, hoursPerEntry: 24 }

const DAY = 86_400_000
const asDate = (day: string) => new Date(`${day}T00:00:00Z`)
export const dayOf = (d: Date) => d.toISOString().slice(0, 10)
export const addDays = (day: string, n: number) => dayOf(new Date(asDate(day).getTime() + n * DAY))

/** The Monday of the week `day` falls in. */
export function weekStartOf(day: string) {
  const weekday = (asDate(day).getUTCDay() + 6) % 7
  return addDays(day, -weekday)
}

export const hoursOf = (quarters: number) => quarters / 4
/** Hours as a quarter-hour count; undefined when they are not whole quarters. */
export function quartersOf(hours: number) {
  const q = hours * 4
  return Number.isInteger(q) ? q : undefined
}

/** A week's price: its hours at the hourly rate, in minor units rounded to the nearest. */
export const priceOf = (quarters: number, rateMinor: number) => Math.round((quarters * rateMinor) / 4)

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** The installment an approved week becomes is named like "Week of 23 Nov 2026 · 12.5 h". */
export function weekTitle(weekStart: string, quarters: number) {
  const d = asDate(weekStart)
  return `Week of ${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} · ${hoursOf(quarters)} h`
}
