import type { Kysely } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import { NOTIFICATION_PAGE, type Notification } from './contract.ts'
import { renderNotification } from './texts.ts'
import { displayName } from '../identity/display-name.ts'

// A user's notifications as the bell, the dashboard and the live alert show them. Every read starts
// from the reader's id: nobody reaches another user's rows.

type DB = Kysely<Database>

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
  'sender.first_name as sender_first_name',
  'sender.last_name as sender_last_name',
  'sender.company_name as sender_company_name',
  'sender.status as sender_status',
] as const

export const notificationsOf = (db: DB, userId: number) =>
  db
    .selectFrom('notification as n')
    .leftJoin('app_user as sender', 'sender.id', 'n.sender_id')
    .select(columns)
    .where('n.user_id', '=', userId)

type Row = Awaited<ReturnType<ReturnType<typeof notificationsOf>['executeTakeFirstOrThrow']>>

/** A stored notification rendered in the reader's language. */
export const present = (row: Row, locale: Locale): Notification => ({
  id: row.id,
  ...renderNotification(locale, row.message_key, paramsOf(row, locale)),
  isRead: row.is_read === 1,
  createdDate: new Date(row.created_at).toISOString(),
  senderImage: row.image_file_id != null ? `files/${row.image_file_id}/download` : null,
  roomId: row.room_id,
  projectId: row.project_id,
  type: row.type,
})

// The person who caused a notification is named as readers see them now: by their name, or as a
// deleted user once their account is erased (the stored text keeps no name of theirs).
function paramsOf(row: Row, locale: Locale) {
  const params = JSON.parse(row.params) as Record<string, unknown>
  if (row.sender_status == null) return params
  const sender = {
    first_name: row.sender_first_name,
    last_name: row.sender_last_name,
    company_name: row.sender_company_name,
    status: row.sender_status,
  }
  return { ...params, name: displayName(sender, locale) }
}

/** The next page of 10 after `hand` notifications, newest first, and how many of all are unread. */
export async function list(db: DB, userId: number, hand: number, locale: Locale) {
  const [rows, unread] = await Promise.all([
    notificationsOf(db, userId).orderBy('n.id', 'desc').offset(hand).limit(NOTIFICATION_PAGE).execute(),
    unreadCount(db, userId),
  ])
  return { data: rows.map((r) => present(r, locale)), unreadCount: unread }
}

/** The newest `limit` unread notifications (the dashboard's list). */
export async function unread(db: DB, userId: number, limit: number, locale: Locale) {
  const rows = await notificationsOf(db, userId)
    .where('n.is_read', '=', 0)
    .orderBy('n.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((r) => present(r, locale))
}

export async function unreadCount(db: DB, userId: number) {
  const row = await db
    .selectFrom('notification')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('is_read', '=', 0)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** A user's stored notification from one source, rendered (for the live alert after a delivery). */
export async function bySource(db: DB, userId: number, source: string, locale: Locale) {
  const row = await notificationsOf(db, userId).where('n.source', '=', source).executeTakeFirst()
  return row ? present(row, locale) : null
}
