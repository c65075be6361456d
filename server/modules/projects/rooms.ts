import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import type { ChatService } from '../chat/service.ts'
import { readProject } from './reads.ts'

type RoomDeps = {
  db: DB
  chat: Pick<ChatService, 'openRoom' | 'roomOf'>
}

/**
 * The chat room of the caller and the other party of a project. The client opens it with any
 * freelancer who proposed (to ask questions before hiring) or holds the contract; a freelancer
 * opens it with the client once hired, or finds the room the client opened. Anyone else: 404.
 */
async function createRoom(deps: RoomDeps, caller: Caller, projectId: number, userId: number) {
  const { db, chat } = deps
  const proj = await readProject(db, projectId)
  if (!proj || userId === caller.userId) throw notFound('Project')
  const asClient = proj.client_id === caller.userId
  const freelancerId = asClient ? userId : caller.userId
  if (!asClient && userId !== proj.client_id) throw notFound('Project')
  const proposed = await db
    .selectFrom('proposal')
    .select('status')
    .where('project_id', '=', projectId)
    .where('freelancer_id', '=', freelancerId)
    .orderBy('id', 'desc')
    .executeTakeFirst()
  const hired = proposed?.status === 'accepted'
  const existing = await chat.roomOf(db, projectId, freelancerId)
  if (!proposed || (!asClient && !hired && !existing)) throw notFound('Project')
  const roomId =
    existing ??
    (await db
      .transaction()
      .execute((trx) => chat.openRoom(trx, { projectId, clientId: proj.client_id, freelancerId })))
  return { roomId, projectId, participants: [proj.client_id, freelancerId] }
}

export function createRooms(deps: RoomDeps) {
  return {
    createRoom: createRoom.bind(null, deps),
  }
}
