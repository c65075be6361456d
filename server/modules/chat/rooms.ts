import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { ChatEvent } from './rules.ts'
import { storeMessage } from './store.ts'

// Rooms are opened by the projects module (it decides who may talk) and receive its contract
// events as system messages.

type Executor = Kysely<Database> | Transaction<Database>

/** Opens the room of a project's client and a freelancer; the same room every time. */
export async function openRoom(
  executor: Executor,
  parties: { projectId: number; clientId: number; freelancerId: number },
) {
  const now = new Date().toISOString()
  await executor
    .insertInto('chat_room')
    .values({
      project_id: parties.projectId,
      client_id: parties.clientId,
      freelancer_id: parties.freelancerId,
      last_message_id: null,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['project_id', 'freelancer_id']).doNothing())
    .execute()
  const room = await executor
    .selectFrom('chat_room')
    .select('id')
    .where('project_id', '=', parties.projectId)
    .where('freelancer_id', '=', parties.freelancerId)
    .executeTakeFirstOrThrow()
  await executor
    .insertInto('chat_member')
    .values([
      { room_id: room.id, user_id: parties.clientId, role: 'client', last_activity_at: now },
      { room_id: room.id, user_id: parties.freelancerId, role: 'freelancer', last_activity_at: now },
    ])
    .onConflict((oc) => oc.columns(['room_id', 'user_id']).doNothing())
    .execute()
  return room.id
}

/** The room of a project and freelancer, if it was opened. */
export async function roomOf(executor: Executor, projectId: number, freelancerId: number) {
  const room = await executor
    .selectFrom('chat_room')
    .select('id')
    .where('project_id', '=', projectId)
    .where('freelancer_id', '=', freelancerId)
    .executeTakeFirst()
  return room?.id ?? null
}

/**
 * Posts a contract event into the room of the project's client and the freelancer, in the
 * transaction that records the event. `source` identifies the event so it is posted once;
 * `actorId` is the member who caused it (not unread for them).
 */
export function systemMessage(
  trx: Transaction<Database>,
  e: {
    roomId: number
    event: ChatEvent
    params: Record<string, string | number>
    source: string
    actorId: number | null
  },
) {
  return storeMessage(trx, {
    roomId: e.roomId,
    senderId: e.actorId,
    clientMessageId: `system:${e.source}`,
    kind: 'system',
    body: '',
    event: e.event,
    params: e.params,
  })
}
