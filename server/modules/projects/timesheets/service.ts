import type { Caller } from '#server/api/handler.ts'
import { periodicJob } from '#server/jobs/periodic.ts'
import type { EntryIn } from './contract.ts'
import { addEntry, changeEntry, removeEntry } from './log.ts'
import { readTimesheet } from './rows.ts'
import { approveWeek, disputeWeek, submitWeek, type ReviewDeps } from './review.ts'
import { sweepWeeks } from './sweep.ts'

// Weekly timesheets of hourly contracts (issue 40 item 3, decision 324), wired once per process
// (server/api/services.ts). The sweep approves weeks left unanswered; it runs hourly.
export function createTimesheets(deps: ReviewDeps) {
  return {
    show: (caller: Caller, projectId: number, week?: string) => readTimesheet(deps, caller, projectId, week),
    add: (caller: Caller, projectId: number, input: EntryIn) => addEntry(deps, caller, projectId, input),
    change: (caller: Caller, projectId: number, entryId: number, input: EntryIn) =>
      changeEntry(deps, caller, projectId, entryId, input),
    remove: (caller: Caller, projectId: number, entryId: number) =>
      removeEntry(deps, caller, projectId, entryId),
    submit: (caller: Caller, projectId: number, weekId: number) =>
      submitWeek(deps, caller, projectId, weekId),
    approve: (caller: Caller, projectId: number, weekId: number) =>
      approveWeek(deps, caller, projectId, weekId),
    dispute: (caller: Caller, projectId: number, weekId: number, reason: string) =>
      disputeWeek(deps, caller, projectId, weekId, reason),
    sweep: (now?: Date, batch?: number, lanes?: number) => sweepWeeks(deps, now, batch, lanes),
    sweepJob: periodicJob(
      () => sweepWeeks(deps).catch((error) => deps.log?.('timesheet sweep failed', error)),
      60 * 60_000,
    ),
  }
}
export type Timesheets = ReturnType<typeof createTimesheets>
