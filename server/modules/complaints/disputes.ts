import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { Refunds } from '../payments/refunds.ts'
import { displayName } from '../identity/display-name.ts'

// What the complaints module needs of the payments module for disputes (decisions 230–231), and the
// admin's read-only view of a chat room a complaint is about (decision 233).
export type DisputeMoney = Pick<Refunds, 'holdForComplaint' | 'disputeOf' | 'decideComplaint'>

type Executor = Kysely<Database> | Transaction<Database>
/** At most this many of a room's latest messages are shown to the admin, oldest first. */
const ROOM_LIMIT = 500

/** A room's messages as its members saw them (text, or a system event with its parameters), for support to read. */
export async function readRoom(executor: Executor, roomId: number) {
  const rows = await executor
    .selectFrom('chat_message as m')
    .leftJoin('app_user as u', 'u.id', 'm.sender_id')
    .select([
      'm.id',
      'm.kind',
      'm.body',
      'm.event',
      'm.params',
      'm.created_at',
      'u.first_name',
      'u.last_name',
      'u.company_name',
      'u.status',
    ])
    .where('m.room_id', '=', roomId)
    .orderBy('m.id', 'desc')
    .limit(ROOM_LIMIT)
    .execute()
  return rows.reverse().map((m) => ({
    id: m.id,
    // No one joined (every account has a status): a message of the room itself.
    sender: m.status === null ? null : displayName(m),
    kind: m.kind,
    body: m.body,
    event: m.event,
    params: (m.params ? JSON.parse(m.params) : {}) as Record<string, string | number>,
    createdAt: new Date(m.created_at).toISOString(),
  }))
}
