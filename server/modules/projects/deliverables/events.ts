import type { MailKind } from '#server/modules/identity/mails.ts'
import { mailOwnNotice } from '#server/modules/notifications/notice-mails.ts'
import type { InstallmentState } from '../machines.ts'
import { projectTitle } from '../funding.ts'
import {
  inNamespace,
  notify,
  recordActivity,
  recordEffects,
  transitionInstallment,
  type Trx,
} from '../transition.ts'
import type { ContractRow, InstallmentRow } from '../shared.ts'

// What an issue or an answer leaves beside the register, in its transaction: the installment's
// move it stands for (submit, or request changes), the project's activity rows, and the other
// party's notification and email in their language (locales/<lng>/deliverables.json
// `notify.<kind>`, locales/<lng>/email.json `<kind>`), as change orders' notices are sent.

type Move = { action: 'submit' | 'request_changes'; set: Record<string, string> }

async function move(
  trx: Trx,
  contract: ContractRow,
  i: InstallmentRow,
  actorId: number,
  m: Move,
  note: string,
) {
  await transitionInstallment(trx, {
    id: i.id,
    current: i.status as InstallmentState,
    action: m.action,
    actor: actorId === contract.freelancer_id ? 'freelancer' : 'client',
    actorId,
    projectId: contract.project_id,
    note,
    set: m.set,
  })
}

/** The other party's bell and email: `kind` names both texts; `path` is the page the email opens. */
async function tell(
  trx: Trx,
  publicUrl: string,
  n: { contract: ContractRow; actorId: number; kind: MailKind; path: string; params: Record<string, string> },
) {
  const { contract } = n
  const other = n.actorId === contract.freelancer_id ? contract.client_id : contract.freelancer_id
  const title = await projectTitle(trx, contract.project_id)
  const params = { title, ...n.params }
  await recordEffects(trx, [
    inNamespace('deliverables', notify([other], n.kind, contract.project_id, 'Project', params, n.actorId)),
  ])
  await mailOwnNotice(trx, publicUrl, other, { kind: 'contracts', mail: n.kind, path: n.path, vars: params })
}

type Issued = {
  contract: ContractRow
  i: InstallmentRow
  actorId: number
  /** Each deliverable issued, labelled "S-101 P02" as the feed and the notices name it. */
  items: Array<{ deliverableId: number; label: string }>
  transmittal: { id: number; label: string }
  /** The installment's submission note when the issue submits it (funded or changes requested). */
  submitNote?: string
}

/** A transmittal's issues: one activity row per deliverable, one move of the installment, one notice. */
export async function recordIssued(trx: Trx, publicUrl: string, s: Issued) {
  const { contract, i } = s
  const labels = s.items.map((x) => x.label).join(', ')
  if (s.submitNote)
    await move(
      trx,
      contract,
      i,
      s.actorId,
      { action: 'submit', set: { submission_note: s.submitNote } },
      labels,
    )
  for (const x of s.items)
    await recordActivity(
      trx,
      contract.project_id,
      s.actorId,
      'deliverable',
      x.deliverableId,
      'issue',
      i.status,
      x.label,
    )
  const one = s.items.length === 1
  await tell(trx, publicUrl, {
    contract,
    actorId: s.actorId,
    kind: one ? 'deliverableIssued' : 'deliverablesIssued',
    path: `/projects/transmittal/${s.transmittal.id}`,
    params: { deliverable: labels, deliverables: labels, transmittal: s.transmittal.label },
  })
}

type Answered = {
  contract: ContractRow
  i: InstallmentRow
  actorId: number
  deliverableId: number
  /** The answer's outcome, as the activity row names it. */
  action: string
  label: string
  note: string
  move?: Move
  kind: 'deliverableApproved' | 'deliverableApprovedWithComments' | 'deliverableToRevise'
  comment: string
}

/** The client's answer to an issue: the installment's move it stands for, the activity row, the notice. */
export async function recordAnswer(trx: Trx, publicUrl: string, s: Answered) {
  const { contract, i } = s
  if (s.move) await move(trx, contract, i, s.actorId, s.move, s.label)
  await recordActivity(
    trx,
    contract.project_id,
    s.actorId,
    'deliverable',
    s.deliverableId,
    s.action,
    i.status,
    s.note,
  )
  await tell(trx, publicUrl, {
    contract,
    actorId: s.actorId,
    kind: s.kind,
    path: `/projects/deliverable/${s.deliverableId}`,
    params: { deliverable: s.label, comment: s.comment },
  })
}
