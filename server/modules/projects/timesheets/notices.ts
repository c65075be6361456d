import { ownNoticeMails } from '#server/modules/notifications/notice-mails.ts'
import { inNamespace, notify, recordActivity, recordEffects, type Trx } from '../transition.ts'
import type { ContractRow } from '../shared.ts'
import { hoursOf } from './rules.ts'
import type { WeekRow } from './rows.ts'

// What a timesheet week's step tells the other party, in the step's transaction: a bell
// (locales/<lng>/timesheets.json `notify.<kind>`) and an email in their language, and a row in the
// project's activity feed (entity `timesheet_week`). An approval by the system tells both parties.

export type WeekStep = 'submitted' | 'approved' | 'autoApproved' | 'disputed'
const kinds = {
  submitted: 'timesheetSubmitted',
  approved: 'timesheetApproved',
  autoApproved: 'timesheetAutoApproved',
  disputed: 'timesheetDisputed',
} as const
const feedAction = {
  submitted: 'submit',
  approved: 'approve',
  autoApproved: 'auto_approve',
  disputed: 'dispute',
}

export async function announceWeek(
  trx: Trx,
  publicUrl: string,
  step: WeekStep,
  {
    contract,
    week,
    actorId,
    title,
  }: { contract: ContractRow; week: WeekRow; actorId: number | null; title: string },
) {
  const projectId = contract.project_id
  const to =
    step === 'submitted'
      ? [contract.client_id]
      : step === 'autoApproved'
        ? [contract.client_id, contract.freelancer_id]
        : [contract.freelancer_id]
  const vars = { title, week: week.week_start, hours: String(hoursOf(week.quarters)) }
  const note = step === 'disputed' ? (week.dispute_reason ?? undefined) : week.week_start
  await recordActivity(
    trx,
    projectId,
    actorId,
    'timesheet_week',
    week.id,
    feedAction[step],
    week.status,
    note,
  )
  // A week's step is a contract step: mailed unless the reader turned those mails off (decision 329).
  const mails = await ownNoticeMails(trx, publicUrl, to, {
    kind: 'contracts',
    mail: kinds[step],
    path: `/projects/timesheets/${projectId}`,
    vars: { ...vars, reason: week.dispute_reason ?? '' },
  })
  // The bell and the mails in one insert (decision 367).
  await recordEffects(trx, [
    inNamespace('timesheets', notify(to, kinds[step], projectId, 'Project', vars, actorId ?? undefined)),
    ...mails,
  ])
}
