import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { OutboxHandler } from '#server/jobs/outbox.ts'
import { CHAT_EVENT_TOPIC, type ChatEventPayload } from './rules.ts'
import { openRoom, systemMessage } from './rooms.ts'

// chat.event: a contract event (projects/transition.ts) as a system message in the room of the
// project's client and the freelancer, opened if need be; posted once (keyed by the outbox row),
// then delivered as any message. It reads the project's rows for the parties and the titles.

type DB = Kysely<Database>

/** The parties and titles an event is about. */
async function partiesOf(
  db: DB,
  e: ChatEventPayload,
): Promise<{
  project: { id: number; title: string; client_id: number }
  freelancerId: number
  params: Record<string, string>
} | null> {
  const project = await db
    .selectFrom('project')
    .select(['id', 'title', 'client_id'])
    .where('id', '=', e.projectId)
    .executeTakeFirst()
  if (!project) return null
  if (e.entity === 'installment' && e.entityId) {
    const i = await db
      .selectFrom('installment as i')
      .innerJoin('contract as c', 'c.id', 'i.contract_id')
      .select(['i.title', 'c.freelancer_id'])
      .where('i.id', '=', e.entityId)
      .executeTakeFirst()
    return i
      ? { project, freelancerId: i.freelancer_id, params: { title: project.title, installment: i.title } }
      : null
  }
  if (e.entity === 'proposal' && e.entityId) {
    const p = await db
      .selectFrom('proposal')
      .select('freelancer_id')
      .where('id', '=', e.entityId)
      .executeTakeFirst()
    return p ? { project, freelancerId: p.freelancer_id, params: { title: project.title } } : null
  }
  return e.freelancerId ? { project, freelancerId: e.freelancerId, params: { title: project.title } } : null
}

export function contractEventHandlers(db: DB): Record<string, OutboxHandler> {
  return {
    [CHAT_EVENT_TOPIC]: async (e: ChatEventPayload, row) => {
      const about = await partiesOf(db, e)
      if (!about) return
      await db.transaction().execute(async (trx) => {
        const roomId = await openRoom(trx, {
          projectId: about.project.id,
          clientId: about.project.client_id,
          freelancerId: about.freelancerId,
        })
        await systemMessage(trx, {
          roomId,
          event: e.event,
          params: about.params,
          source: `outbox:${row.id}`,
          actorId: e.actorId,
        })
      })
    },
  }
}
