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
// move it stands for (submit, or request changes), the project's activity row and the other
// party's notification (texts in locales/<lng>/deliverables.json `notify.<kind>`).

type Step = {
  contract: ContractRow
  i: InstallmentRow
  actorId: number
  deliverableId: number
  /** The activity's action: issue, or the answer's outcome. */
  action: string
  /** "S-101 P02", as the activity and the notification name it. */
  label: string
  note: string
  move?: { action: 'submit' | 'request_changes'; set: Record<string, string> }
  kind: string
  params?: Record<string, string>
}

export async function recordStep(trx: Trx, s: Step) {
  const { contract, i } = s
  const freelancerActs = s.actorId === contract.freelancer_id
  if (s.move)
    await transitionInstallment(trx, {
      id: i.id,
      current: i.status as InstallmentState,
      action: s.move.action,
      actor: freelancerActs ? 'freelancer' : 'client',
      actorId: s.actorId,
      projectId: contract.project_id,
      note: s.label,
      set: s.move.set,
    })
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
  const title = await projectTitle(trx, contract.project_id)
  const other = freelancerActs ? contract.client_id : contract.freelancer_id
  await recordEffects(trx, [
    inNamespace(
      'deliverables',
      notify(
        [other],
        s.kind,
        contract.project_id,
        'Project',
        { title, deliverable: s.label, ...s.params },
        s.actorId,
      ),
    ),
  ])
}
