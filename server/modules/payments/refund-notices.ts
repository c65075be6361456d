import { enqueue } from '#server/jobs/outbox.ts'
import { CHAT_EVENT_TOPIC, type ChatEvent, type ChatEventPayload } from '../chat/rules.ts'
import { inNamespace, notify } from '../projects/transition.ts'
import type { Trx } from './ledger.ts'

// What a refund's parties are told, in the change's transaction: a notification in the bell and
// an event in the project's chat.

/** An event in the project's chat room (the chat module writes it). */
export const chatEvent = (
  trx: Trx,
  event: ChatEvent,
  r: { project_id: number; freelancer_id: number },
  actorId: number | null,
) =>
  enqueue(trx, CHAT_EVENT_TOPIC, {
    event,
    projectId: r.project_id,
    freelancerId: r.freelancer_id,
    actorId,
  } satisfies ChatEventPayload)

/** A notification in the recipients' language from locales/<lng>/refunds.json `notify.<kind>`. */
export const tell = async (
  trx: Trx,
  userIds: number[],
  kind: string,
  projectId: number,
  params: Record<string, string | number>,
) => {
  const e = inNamespace('refunds', notify(userIds, kind, projectId, 'Project', params))
  await enqueue(trx, e.topic, e.payload)
}

/** The project's and the installment's titles, for the notification's text. */
export const titles = async (trx: Trx, r: { project_id: number; installment_id: number }) => {
  const project = await trx
    .selectFrom('project')
    .select('title')
    .where('id', '=', r.project_id)
    .executeTakeFirstOrThrow()
  const i = await trx
    .selectFrom('installment')
    .select('title')
    .where('id', '=', r.installment_id)
    .executeTakeFirstOrThrow()
  return { title: project.title, installment: i.title }
}

/**
 * A dispute's decision, told to each side in its own words (issue 39): what went back to the client
 * and what was released to the freelancer. The amounts are stored as facts and worded as money in
 * the reader's language when shown (decision 321); the other side is the notification's person, so
 * `{{name}}` names them as the reader sees them now (decision 322).
 */
export async function tellDecided(
  trx: Trx,
  r: {
    project_id: number
    installment_id: number
    client_id: number
    freelancer_id: number
    currency: string
  },
  { refundMinor, releaseMinor }: { refundMinor: number; releaseMinor: number },
) {
  const outcome = releaseMinor === 0 ? 'refund' : refundMinor === 0 ? 'release' : 'split'
  const params = { ...(await titles(trx, r)), refundMinor, releaseMinor, currency: r.currency }
  const sides = [
    [r.client_id, r.freelancer_id, 'Client'],
    [r.freelancer_id, r.client_id, 'Freelancer'],
  ] as const
  for (const [reader, other, side] of sides) {
    const kind = `disputeDecidedFor${side}.${outcome}`
    const e = inNamespace('refunds', notify([reader], kind, r.project_id, 'Project', params, other))
    await enqueue(trx, e.topic, e.payload)
  }
}
