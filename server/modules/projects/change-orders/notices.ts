import { enqueue } from '#server/jobs/outbox.ts'
import { mailOwnNotice } from '#server/modules/notifications/notice-mails.ts'
import { CHAT_EVENT_TOPIC, type ChatEventPayload } from '../../chat/rules.ts'
import { inNamespace, notify, recordActivity, recordEffects, type Trx } from '../transition.ts'
import type { ContractRow } from '../shared.ts'
import type { ChangeOrderRow } from './rows.ts'

// What a change order's step tells the parties, in the step's transaction: the other party's bell
// (locales/<lng>/changeOrders.json `notify.<kind>`) and an email in their language, a system message
// in the contract's chat, and a row in the project's activity feed (entity `change_order`).

type Step = 'proposed' | 'accepted' | 'rejected' | 'withdrawn'
const kinds = {
  proposed: 'changeOrderProposed',
  accepted: 'changeOrderAccepted',
  rejected: 'changeOrderRejected',
  withdrawn: 'changeOrderWithdrawn',
} as const
const feedAction = { proposed: 'propose', accepted: 'accept', rejected: 'reject', withdrawn: 'withdraw' }

export async function announceStep(
  trx: Trx,
  publicUrl: string,
  step: Step,
  {
    contract,
    order,
    actorId,
    title,
  }: { contract: ContractRow; order: ChangeOrderRow; actorId: number; title: string },
) {
  const other = actorId === contract.client_id ? contract.freelancer_id : contract.client_id
  const params = { title, number: order.number, description: order.description.slice(0, 140) }
  await recordEffects(trx, [
    inNamespace(
      'changeOrders',
      notify([other], kinds[step], contract.project_id, 'Project', params, actorId),
    ),
  ])
  await recordActivity(
    trx,
    contract.project_id,
    actorId,
    'change_order',
    order.id,
    feedAction[step],
    step,
    step === 'rejected' ? (order.rejection_reason ?? undefined) : `#${order.number}`,
  )
  // A withdrawal is only the bell and the feed: nothing was agreed or refused.
  if (step === 'withdrawn') return
  await enqueue(trx, CHAT_EVENT_TOPIC, {
    event: kinds[step],
    projectId: contract.project_id,
    freelancerId: contract.freelancer_id,
    actorId,
  } satisfies ChatEventPayload)
  await mailOwnNotice(trx, publicUrl, other, {
    kind: 'contracts',
    mail: kinds[step],
    path: `/projects/changes/${contract.project_id}`,
    vars: { title, number: String(order.number), reason: order.rejection_reason ?? '' },
  })
}
