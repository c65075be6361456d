import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import { day } from '../schemas/fields.ts'
import { quartersOf, timesheetLimits, weekStates } from './rules.ts'

export { timesheetLimits, weekStates }
export type { WeekState } from './rules.ts'

// Weekly timesheets of hourly contracts (issue 40 item 3, decision 324): the freelancer logs time
// into a week and submits it; the client approves it or disputes it with a reason; an approved week
// becomes an installment charged to the client. Rules are worded as keys of the `timesheets`
// namespace, so the page and the API say them in the reader's language.

const problem = (key: string) => `timesheets:errors.${key}`
const tag = 'Timesheets'
const text = (max: number, key: string) =>
  z
    .string({ error: problem(key) })
    .trim()
    .min(1, problem(key))
    .max(max, 'projects:errors.tooLong')

/** Hours in quarter hours (1.5, 0.25), as a form types them or the API sends them. */
const hours = z.coerce
  .number({ error: problem('hours') })
  .positive(problem('hours'))
  .max(timesheetLimits.hoursPerEntry, problem('hoursPerEntry'))
  .refine((h) => quartersOf(h) !== undefined, problem('quarters'))

/** One entry of a week: the API's body and the page's form (an empty deliverable is none). */
export const entryIn = z
  .object({
    date: day,
    hours,
    description: text(timesheetLimits.description, 'description'),
    deliverableId: z
      .preprocess((v) => (v === '' || v === null ? undefined : v), recordId.optional())
      .optional(),
  })
  .transform(({ hours: h, ...rest }) => ({ ...rest, quarters: quartersOf(h)! }))
export type EntryIn = z.output<typeof entryIn>

export const disputeIn = z.object({ reason: text(timesheetLimits.reason, 'reason') })

const entryOut = z.object({
  id: z.number(),
  date: z.string(),
  hours: z.number(),
  description: z.string(),
  deliverableId: z.number().nullable(),
  deliverable: z.string().nullable(),
})
const weekOut = z.object({
  /** null for a week with nothing logged yet. */
  id: z.number().nullable(),
  weekStart: z.string(),
  weekEnd: z.string(),
  status: z.enum(weekStates),
  hours: z.number(),
  /** What the week costs at the contract's rate, and the client's fee on it. */
  amountMinor: z.number(),
  clientFeeMinor: z.number(),
  submittedAt: z.string().nullable(),
  /** When the system approves it if the client has not answered. */
  reviewDueAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  autoApproved: z.boolean(),
  disputeReason: z.string().nullable(),
  /** The installment an approved week became, and its state (pending until paid, then released). */
  installmentId: z.number().nullable(),
  installmentStatus: z.string().nullable(),
})
export type WeekOut = z.output<typeof weekOut>

export const timesheetOut = z.object({
  projectId: z.number(),
  contractId: z.number(),
  projectTitle: z.string(),
  contractStatus: z.string(),
  role: z.enum(['client', 'freelancer']),
  currency: z.string(),
  hourlyRateMinor: z.number(),
  weeklyLimitHours: z.number().nullable(),
  clientFeePercent: z.number(),
  reviewDays: z.number(),
  /** The chosen week with its entries, and what the caller may do with it now. */
  week: weekOut.extend({
    entries: z.array(entryOut),
    canEdit: z.boolean(),
    canSubmit: z.boolean(),
    canDecide: z.boolean(),
  }),
  /** Every week with time logged, newest first. */
  weeks: z.array(weekOut),
  /** The contract's register, to name a deliverable in an entry. */
  deliverables: z.array(z.object({ id: z.number(), number: z.string(), title: z.string() })),
})
export type TimesheetOut = z.output<typeof timesheetOut>

const projectId = recordId
const path = 'projects/{projectId}/timesheets'
const entry = z.object({ projectId, entryId: recordId })
const week = z.object({ projectId, weekId: recordId })
export const timesheetsContract = {
  show: endpoint({
    method: 'GET',
    path,
    summary:
      "An hourly contract's timesheet: the chosen week (default: this week) with its entries, and every week with its state (its two parties)",
    tag,
    access: 'user',
    params: z.object({ projectId }),
    query: z.object({ week: day.optional() }),
    response: timesheetOut,
  }),
  add: endpoint({
    method: 'POST',
    path: `${path}/entries`,
    summary:
      "The freelancer logs time into the date's week: within the weekly limit, not in the future nor before the contract began, while the week is open",
    tag,
    access: 'user',
    params: z.object({ projectId }),
    body: entryIn,
    response: timesheetOut,
  }),
  change: endpoint({
    method: 'PUT',
    path: `${path}/entries/{entryId}`,
    summary: 'The freelancer changes an entry while its week is open (or disputed)',
    tag,
    access: 'user',
    params: entry,
    body: entryIn,
    response: timesheetOut,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: `${path}/entries/{entryId}`,
    summary: 'The freelancer removes an entry while its week is open (or disputed)',
    tag,
    access: 'user',
    params: entry,
    response: timesheetOut,
  }),
  submit: endpoint({
    method: 'POST',
    path: `${path}/weeks/{weekId}/submit`,
    summary: 'The freelancer submits a week with time logged; the client is told',
    tag,
    access: 'user',
    params: week,
    response: timesheetOut,
  }),
  approve: endpoint({
    method: 'POST',
    path: `${path}/weeks/{weekId}/approve`,
    summary:
      'The client approves a submitted week: it becomes an installment of the contract (hours × rate), charged once',
    tag,
    access: 'user',
    params: week,
    response: timesheetOut,
  }),
  dispute: endpoint({
    method: 'POST',
    path: `${path}/weeks/{weekId}/dispute`,
    summary:
      'The client disputes a submitted week with a reason; the freelancer may correct and submit it again',
    tag,
    access: 'user',
    params: week,
    body: disputeIn,
    response: timesheetOut,
  }),
}
