import type { Kysely, Transaction } from 'kysely'
import type { Database, Locale, NotificationType } from '../../db/schema.ts'
import { forbidden, notFound } from '../../api/errors.ts'
import { enqueue } from '../../jobs/outbox.ts'
import { NOTIFICATION_PAGE, type Notification } from './contract.ts'
import { renderNotification } from './texts.ts'

/** The outbox topic of a read (delivered by outbox.ts: countNotify to the reader's every tab). */
export const COUNT_TOPIC = 'notifications.count'

type Executor = Kysely<Database> | Transaction<Database>

/** One notification to store: `source` identifies what produced it (e.g. `outbox:42`) so a retry cannot add it twice. */
export interface NotificationInput {
  userId: number
  source: string
  messageKey: string
  params?: Record<string, string | number>
  type: NotificationType
  projectId?: number | null
  roomId?: number | null
  senderId?: number | null
}

const columns = [
  'n.id',
  'n.message_key',
  'n.params',
  'n.type',
  'n.project_id',
  'n.room_id',
  'n.is_read',
  'n.created_at',
  'sender.image_file_id',
] as const

export function createNotificationsService({ db }: { db: Kysely<Database> }) {
  // Every read starts from the reader's id: nobody reaches another user's rows.
  const mine = (userId: number) =>
    db
      .selectFrom('notification as n')
      .leftJoin('app_user as sender', 'sender.id', 'n.sender_id')
      .select(columns)
      .where('n.user_id', '=', userId)

  type Row = Awaited<ReturnType<ReturnType<typeof mine>['executeTakeFirstOrThrow']>>
  const present = (row: Row, locale: Locale): Notification => ({
    id: row.id,
    ...renderNotification(locale, row.message_key, JSON.parse(row.params) as Record<string, unknown>),
    isRead: row.is_read === 1,
    createdDate: new Date(row.created_at).toISOString(),
    senderImage: row.image_file_id != null ? `files/${row.image_file_id}/download` : null,
    roomId: row.room_id,
    projectId: row.project_id,
    type: row.type,
  })

  async function unreadCount(userId: number) {
    const row = await db
      .selectFrom('notification')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('is_read', '=', 0)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  return {
    /** The next page of 10 after `hand` notifications, newest first. */
    async list(userId: number, hand: number, locale: Locale) {
      const rows = await mine(userId).orderBy('n.id', 'desc').offset(hand).limit(NOTIFICATION_PAGE).execute()
      return { data: rows.map((r) => present(r, locale)) }
    },
    /** The newest `limit` unread notifications (the dashboard's list). */
    async unread(userId: number, limit: number, locale: Locale) {
      const rows = await mine(userId)
        .where('n.is_read', '=', 0)
        .orderBy('n.id', 'desc')
        .limit(limit)
        .execute()
      return rows.map((r) => present(r, locale))
    },
    async count(userId: number) {
      return { unreadCount: await unreadCount(userId) }
    },
    unreadCount,
    /**
     * Marks the caller's own notification read; another user's id is simply not found. A read that
     * changes the unread count also writes, in its transaction, the message that tells the reader's
     * other tabs (countNotify, after commit); reading it again changes nothing and tells no one.
     */
    async markRead(userId: number, id: number, locale: Locale) {
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
      const row = await mine(userId).where('n.id', '=', id).executeTakeFirst()
      if (!row) throw notFound('Notification')
      return present(row, locale)
    },
    /** The hub-style aliases name a user: only the caller's own id is accepted. */
    ownId(callerId: number, userId: number) {
      if (callerId !== userId) throw forbidden()
      return userId
    },
    /** Stores notifications; rows already stored for the same user and source are left as they are. Returns the ids stored now. */
    async record(executor: Executor, items: NotificationInput[]) {
      if (!items.length) return []
      const now = new Date().toISOString()
      const rows = await executor
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
      return rows
    },
    /** Marks read a user's notifications of one chat room (they have read the room); answers how many changed. */
    async markRoomRead(executor: Executor, userId: number, roomId: number) {
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
    },
    /** A user's stored notification from one source, rendered (for the live alert after a delivery). */
    async bySource(userId: number, source: string, locale: Locale) {
      const row = await mine(userId).where('n.source', '=', source).executeTakeFirst()
      return row ? present(row, locale) : null
    },
  }
}

export type NotificationsService = ReturnType<typeof createNotificationsService>
