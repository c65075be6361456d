import { sql, type Kysely } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import { notFound } from '#server/api/errors.ts'
import type { ChatMessage, ChatRoom } from './contract.ts'
import { messagesByIds, messagesPage, personOf } from './present.ts'
import { closedReason } from './rules.ts'
import { hasUnread, roomsWithUnread, unreadIfAny } from './unread.ts'

// The caller's rooms as the chat list shows them, and one room's page of messages.

type DB = Kysely<Database>

/**
 * The caller's rooms, most recent activity first, each as the list shows it, in one query: with
 * `totals`, every row also carries the caller's room count and rooms with unread messages
 * (window functions over all their rooms, before the page is cut), so the list and the top
 * bar's icon need no second query. Each row carries both members' read marks (the room page).
 */
async function roomRows(
  db: DB,
  userId: number,
  options: { roomId?: number; offset?: number; limit?: number; totals?: boolean },
) {
  let q = db
    .selectFrom('chat_member as m')
    .innerJoin('chat_room as r', 'r.id', 'm.room_id')
    .innerJoin('project as p', 'p.id', 'r.project_id')
    .innerJoin('chat_member as o', (j) =>
      j.onRef('o.room_id', '=', 'm.room_id').onRef('o.user_id', '<>', 'm.user_id'),
    )
    .innerJoin('app_user as u', 'u.id', 'o.user_id')
    .leftJoin('contract as c', (j) =>
      j.onRef('c.project_id', '=', 'r.project_id').onRef('c.freelancer_id', '=', 'r.freelancer_id'),
    )
    .select([
      'm.room_id',
      'm.role',
      'm.last_activity_at',
      'm.last_read_message_id',
      'o.last_read_message_id as other_last_read_message_id',
      'r.project_id',
      'r.last_message_id',
      'r.created_at',
      'p.title',
      'p.status as project_status',
      'c.id as contract_id',
      'c.status as contract_status',
    ])
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.company_name', 'u.status', 'u.image_file_id'])
    .select(unreadIfAny(userId).as('unread'))
    .$if(!!options.totals, (qb) =>
      qb.select([
        sql<number>`COUNT(*) OVER ()`.as('total'),
        sql<number>`SUM(CASE WHEN r.last_message_id > m.last_read_message_id AND ${hasUnread(userId)} THEN 1 ELSE 0 END) OVER ()`.as(
          'with_unread',
        ),
      ]),
    )
    .where('m.user_id', '=', userId)
  if (options.roomId) q = q.where('m.room_id', '=', options.roomId)
  return q
    .orderBy('m.last_activity_at', 'desc')
    .orderBy('m.room_id', 'desc')
    .offset(options.offset ?? 0)
    .limit(options.limit ?? 1)
    .execute()
}
type RoomRow = Awaited<ReturnType<typeof roomRows>>[number]

/** Rooms as the API shows them; `known` holds messages already loaded (a room page's newest), so their room's last message is not read again. */
async function presentRooms(
  db: DB,
  rows: RoomRow[],
  locale: Locale,
  known: ChatMessage[] = [],
): Promise<ChatRoom[]> {
  const last = new Map(known.map((m) => [m.id, m]))
  const missing = rows.flatMap((r) =>
    r.last_message_id && !last.has(r.last_message_id) ? [r.last_message_id] : [],
  )
  for (const m of await messagesByIds(db, missing, locale)) last.set(m.id, m)
  return rows.map((r) => ({
    id: r.room_id,
    project: { id: r.project_id, title: r.title },
    other: personOf(r),
    myRole: r.role,
    contractId: r.contract_id ?? null,
    closed: closedReason(r.project_status, r.contract_status ?? null),
    lastMessage: (r.last_message_id && last.get(r.last_message_id)) || null,
    unreadCount: Number(r.unread),
    lastActivityAt: r.last_activity_at,
    createdAt: r.created_at,
  }))
}

export async function rooms(
  db: DB,
  userId: number,
  page: { page: number; pageSize: number; locale: Locale },
) {
  const { pageSize, locale } = page
  const rows = await roomRows(db, userId, {
    offset: (page.page - 1) * pageSize,
    limit: pageSize,
    totals: true,
  })
  // A page past the end has no row to carry the totals: count them apart.
  const [total, withUnread] = rows[0]
    ? [Number(rows[0].total), Number(rows[0].with_unread)]
    : await Promise.all([
        db
          .selectFrom('chat_member')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n)),
        roomsWithUnread(db, userId),
      ])
  return {
    data: await presentRooms(db, rows, locale),
    page: page.page,
    pageSize,
    total,
    roomsWithUnread: withUnread,
  }
}

// Two queries for the newest page (the room card with both read marks, which is also the
// membership check; the page with its attachments), run together: the page is thrown away
// unread when the caller is not a member. An earlier page reads the room's last message too.
export async function messages(
  db: DB,
  userId: number,
  roomId: number,
  query: { before?: number; limit: number; locale: Locale },
) {
  const { locale } = query
  const [[row], newestFirst] = await Promise.all([
    roomRows(db, userId, { roomId }),
    messagesPage(db, roomId, query.before, query.limit + 1, locale),
  ])
  if (!row) throw notFound('Room')
  const more = newestFirst.length > query.limit
  const data = newestFirst.slice(0, query.limit).reverse()
  const [room] = await presentRooms(db, [row], locale, data)
  return {
    room,
    data,
    before: more ? data[0].id : null,
    myLastReadMessageId: row.last_read_message_id,
    otherLastReadMessageId: row.other_last_read_message_id,
  }
}
