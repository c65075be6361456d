import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import { ApiError, notFound } from '#server/api/errors.ts'
import { peopleOf } from './present.ts'
import { closedReason } from './rules.ts'

// Who is in a room: every call about a room starts from the caller's member row, so a room they
// are not in is not found.

type Executor = Kysely<Database> | Transaction<Database>

const closedWords = {
  contractCompleted: 'This conversation is closed: the contract is completed',
  contractCancelled: 'This conversation is closed: the contract was cancelled',
  projectClosed: 'This conversation is closed: the project is no longer open',
}

/** The caller's member row of a room, with the room and why it is closed; a room they are not in is not found. */
export async function membership(executor: Executor, userId: number, roomId: number) {
  const row = await executor
    .selectFrom('chat_member as m')
    .innerJoin('chat_room as r', 'r.id', 'm.room_id')
    .innerJoin('project as p', 'p.id', 'r.project_id')
    .leftJoin('contract as c', (j) =>
      j.onRef('c.project_id', '=', 'r.project_id').onRef('c.freelancer_id', '=', 'r.freelancer_id'),
    )
    .select([
      'm.room_id',
      'm.role',
      'm.last_read_message_id',
      'r.project_id',
      'r.client_id',
      'r.freelancer_id',
      'r.last_message_id',
      'r.created_at',
      'p.status as project_status',
      'c.status as contract_status',
    ])
    .where('m.room_id', '=', roomId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst()
  if (!row) throw notFound('Room')
  return {
    ...row,
    otherId: row.role === 'client' ? row.freelancer_id : row.client_id,
    closed: closedReason(row.project_status, row.contract_status ?? null),
  }
}

/** A member's send into a closed room is refused (400 naming the room and why), before any upload is read. */
export async function openMembership(executor: Executor, userId: number, roomId: number) {
  const member = await membership(executor, userId, roomId)
  if (member.closed) {
    const why = closedWords[member.closed]
    throw new ApiError(400, 'Conversation Closed', `roomId: ${why}`, { roomId: [why] })
  }
  return member
}

export async function isMember(db: Executor, userId: number, roomId: number) {
  return !!(await db
    .selectFrom('chat_member')
    .select('room_id')
    .where('room_id', '=', roomId)
    .where('user_id', '=', userId)
    .executeTakeFirst())
}

/** The members of a room (for deliveries). */
export async function members(db: Executor, roomId: number) {
  return (await db.selectFrom('chat_member').select('user_id').where('room_id', '=', roomId).execute()).map(
    (r) => r.user_id,
  )
}

/** The public card of someone the caller shares a room with (themselves included); anyone else is not found. */
export async function userInfo(db: Executor, userId: number, otherId: number) {
  const shared =
    userId === otherId ||
    !!(await db
      .selectFrom('chat_member as m')
      .innerJoin('chat_member as o', 'o.room_id', 'm.room_id')
      .select('m.room_id')
      .where('m.user_id', '=', userId)
      .where('o.user_id', '=', otherId)
      .executeTakeFirst())
  const person = shared ? (await peopleOf(db, [otherId])).get(otherId) : undefined
  if (!person) throw notFound('User')
  return person
}
