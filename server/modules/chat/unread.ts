import { sql, type Kysely, type Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import { notFound } from '#server/api/errors.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import type { NotificationsService } from '../notifications/service.ts'
import { membership } from './membership.ts'
import { NONE, READ_TOPIC } from './store.ts'

// Read marks and unread counts. A member's read mark is the newest message they have read; what
// others sent after it is unread.

type Executor = Kysely<Database> | Transaction<Database>

/** Member m's unread messages: newer than their mark and not their own. */
export const unreadOf = (userId: number) =>
  sql<number>`(SELECT COUNT(*) FROM chat_message x WHERE x.room_id = m.room_id AND x.id > m.last_read_message_id AND (x.sender_id IS NULL OR x.sender_id <> ${userId}))`

/** A room's unread count for member m, computed only where the room has anything newer than m's mark. */
export const unreadIfAny = (userId: number) =>
  sql<number>`CASE WHEN r.last_message_id > m.last_read_message_id THEN ${unreadOf(userId)} ELSE 0 END`

/** Whether room r has a message member m has not read (for counting rooms). */
export const hasUnread = (userId: number) =>
  sql<boolean>`EXISTS (SELECT 1 FROM chat_message x WHERE x.room_id = m.room_id AND x.id > m.last_read_message_id AND (x.sender_id IS NULL OR x.sender_id <> ${userId}))`

/** How many of the user's rooms have messages they have not read (the top bar's icon). */
export async function roomsWithUnread(executor: Executor, userId: number) {
  const row = await executor
    .selectFrom('chat_member as m')
    .innerJoin('chat_room as r', 'r.id', 'm.room_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('m.user_id', '=', userId)
    .whereRef('r.last_message_id', '>', 'm.last_read_message_id')
    .where(hasUnread(userId))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The caller's unread messages in a room; their member row is the membership check (one query). */
export async function countUnread(db: Executor, userId: number, roomId: number) {
  const row = await db
    .selectFrom('chat_member as m')
    .innerJoin('chat_room as r', 'r.id', 'm.room_id')
    .select(unreadIfAny(userId).as('n'))
    .where('m.room_id', '=', roomId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst()
  if (!row) throw notFound('Room')
  return { unreadCount: Number(row.n) }
}

/** Moves the caller's read mark forward to `upTo` (default: the newest message); never back. */
export async function markRead(
  deps: { db: Kysely<Database>; notifications: NotificationsService },
  userId: number,
  roomId: number,
  upTo?: number,
) {
  const { db, notifications } = deps
  const lastRead = await db.transaction().execute(async (trx) => {
    const member = await membership(trx, userId, roomId)
    const newest = member.last_message_id ?? 0
    const target = Math.min(upTo ?? newest, newest)
    if (target <= member.last_read_message_id) return member.last_read_message_id
    const caughtUp = target >= newest
    await trx
      .updateTable('chat_member')
      .set({
        last_read_message_id: target,
        ...(caughtUp ? { alert_state: NONE, email_state: NONE } : {}),
      })
      .where('room_id', '=', roomId)
      .where('user_id', '=', userId)
      .where('last_read_message_id', '<', target)
      .execute()
    // Caught up: the room's bell notifications have been seen too.
    if (caughtUp) await notifications.markRoomRead(trx, userId, roomId)
    await enqueue(trx, READ_TOPIC, { roomId, userId, lastReadMessageId: target })
    return target
  })
  const [{ unreadCount }, roomsWithUnreadNow] = await Promise.all([
    countUnread(db, userId, roomId),
    roomsWithUnread(db, userId),
  ])
  return { roomId, lastReadMessageId: lastRead, unreadCount, roomsWithUnread: roomsWithUnreadNow }
}
