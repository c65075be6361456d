import type { Kysely, Transaction } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import { notFound } from '#server/api/errors.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { notificationsOf, present } from './inbox.ts'
import { noticeKindOf, switchedOff } from './preferences.ts'
import { mailNotices, type NoticeMailDeps } from './notice-mails.ts'
import { queuePushes } from './push.ts'
import type { NotificationInput } from './notification.ts'

// Storing notifications and marking them read. A read that changes a user's unread count also
// writes, in its transaction, the outbox row that tells their other tabs (countNotify, after commit).

/** The outbox topic of a read (delivered by outbox.ts: countNotify to the reader's every tab). */
export const COUNT_TOPIC = 'notifications.count'

type Executor = Kysely<Database> | Transaction<Database>

/**
 * Stores notifications for the readers who keep their kind on in the site, mails them to those who
 * keep it on by email (decision 329) and queues a push to those who turned push on (decision 337);
 * rows already stored for the same user and source are left as they are, and nothing is mailed or
 * pushed twice. Returns the ids stored now.
 */
export async function record(executor: Executor, items: NotificationInput[], mails?: NoticeMailDeps) {
  if (!items.length) return []
  const deliver = async (trx: Executor) => {
    const off = await switchedOff(
      trx,
      items.map((i) => i.userId),
    )
    const shown = items.filter((i) => !off.has(`${i.userId}:${noticeKindOf(i.messageKey)}:site`))
    const stored = shown.length ? await store(trx, shown) : []
    if (mails) await mailNotices(trx, mails, items, off)
    await queuePushes(trx, items)
    return stored
  }
  return executor.isTransaction ? deliver(executor) : executor.transaction().execute(deliver)
}

function store(executor: Executor, items: NotificationInput[]) {
  const now = new Date().toISOString()
  return executor
    .insertInto('notification')
    .values(
      items.map((i) => ({
        user_id: i.userId,
        source: i.source,
        message_key: i.messageKey,
        params: JSON.stringify(i.params ?? {}),
        type: i.type,
        project_id: i.projectId ?? null,
        room_id: i.roomId ?? null,
        sender_id: i.senderId ?? null,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['user_id', 'source']).doNothing())
    .returning(['id', 'user_id'])
    .execute()
}

/** Marks the caller's own notification read; another user's id is simply not found. Reading it again changes nothing and tells no one. */
export async function markRead(db: Kysely<Database>, userId: number, id: number, locale: Locale) {
  await db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('notification')
      .set({ is_read: 1 })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('is_read', '=', 0)
      .executeTakeFirst()
    if (Number(done.numUpdatedRows) === 1) await enqueue(trx, COUNT_TOPIC, { userId })
  })
  const row = await notificationsOf(db, userId).where('n.id', '=', id).executeTakeFirst()
  if (!row) throw notFound('Notification')
  return present(row, locale)
}

/** Marks every unread notification of the caller read ("Mark all as read"); answers how many changed. */
export async function markAllRead(db: Kysely<Database>, userId: number) {
  return db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('notification')
      .set({ is_read: 1 })
      .where('user_id', '=', userId)
      .where('is_read', '=', 0)
      .executeTakeFirst()
    const marked = Number(done.numUpdatedRows)
    if (marked) await enqueue(trx, COUNT_TOPIC, { userId })
    return marked
  })
}

/** Marks read a user's notifications of one chat room (they have read the room); answers how many changed. */
export async function markRoomRead(executor: Executor, userId: number, roomId: number) {
  const done = await executor
    .updateTable('notification')
    .set({ is_read: 1 })
    .where('user_id', '=', userId)
    .where('room_id', '=', roomId)
    .where('is_read', '=', 0)
    .executeTakeFirst()
  const changed = Number(done.numUpdatedRows)
  if (changed) await enqueue(executor, COUNT_TOPIC, { userId })
  return changed
}
