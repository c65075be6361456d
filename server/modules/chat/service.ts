import { sql, type Kysely, type Transaction } from 'kysely'
import { z } from 'zod'
import type { Database, Locale } from '../../db/schema.ts'
import type { NotificationsService } from '../notifications/service.ts'
import { ApiError, notFound, validationError } from '../../api/errors.ts'
import { enqueue } from '../../jobs/outbox.ts'
import type { FileService } from '../files/service.ts'
import {
  documentExtensions,
  extensionOf,
  imageExtensions,
  mediaExtensions,
  problems,
} from '../files/rules.ts'
import { sendMessageInput, type ChatMessage, type ChatRoom } from './contract.ts'
import { messagesByIds, messagesPage, peopleOf, personOf } from './present.ts'
import { chatLimits, closedReason, type ChatEvent } from './rules.ts'

type Executor = Kysely<Database> | Transaction<Database>

/** Outbox topics (delivered by outbox.ts after commit). */
export const MESSAGE_TOPIC = 'chat.message'
export const READ_TOPIC = 'chat.read'
export const AWAY_TOPIC = 'chat.away'
export const EMAIL_AWAY_TOPIC = 'chat.email'
/** An away member is notified once this long after the first message they have not read… */
export const AWAY_ALERT_MS = 30_000
/** …and emailed once if it is still unread this long after it came. */
export const AWAY_EMAIL_MS = 15 * 60_000

// Away state of a member for the current run of unread messages (chat_member.alert_state / email_state).
const NONE = 0
const SCHEDULED = 1
export const SENT = 2

/** Which upload rule a chat attachment's name picks: images keep SPEC §5's limit; documents, video and audio may be larger. */
function attachmentRule(fileName: string) {
  const ext = extensionOf(fileName)
  if ((imageExtensions as readonly string[]).includes(ext))
    return { kind: 'image' as const, limitKb: chatLimits.imageKb }
  if ((mediaExtensions as readonly string[]).includes(ext))
    return { kind: 'media' as const, limitKb: chatLimits.mediaKb }
  if ((documentExtensions as readonly string[]).includes(ext))
    return { kind: 'document' as const, limitKb: chatLimits.documentKb }
  return problems.invalidAttachment()
}

const closedWords = {
  contractCompleted: 'This conversation is closed: the contract is completed',
  contractCancelled: 'This conversation is closed: the contract was cancelled',
  projectClosed: 'This conversation is closed: the project is no longer open',
}

// In a form with files the text may be empty.
const multipartInput = sendMessageInput.extend({
  text: z.string().trim().max(chatLimits.text, `must be at most ${chatLimits.text} characters`).default(''),
})

export function createChatService({
  db,
  files,
  notifications,
}: {
  db: Kysely<Database>
  files: FileService
  notifications: NotificationsService
}) {
  // A room's attachments are for its two members (and their sender, who owns the file); anyone else gets 404.
  files.setReadPolicy('chat', async (file, caller) => {
    if (!caller) return false
    const found = await db
      .selectFrom('chat_attachment as a')
      .innerJoin('chat_message as m', 'm.id', 'a.message_id')
      .innerJoin('chat_member as cm', 'cm.room_id', 'm.room_id')
      .select('a.file_id')
      .where('a.file_id', '=', file.id)
      .where('cm.user_id', '=', caller.userId)
      .executeTakeFirst()
    return !!found
  })
  files.setReferences('chat', async (executor, ids) =>
    (
      await executor.selectFrom('chat_attachment').select('file_id').where('file_id', 'in', ids).execute()
    ).map((r) => r.file_id),
  )

  /** The caller's member row of a room; a room they are not in is not found. */
  async function membership(executor: Executor, userId: number, roomId: number) {
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
  async function openMembership(executor: Executor, userId: number, roomId: number) {
    const member = await membership(executor, userId, roomId)
    if (member.closed) {
      const why = closedWords[member.closed]
      throw new ApiError(400, 'Conversation Closed', `roomId: ${why}`, { roomId: [why] })
    }
    return member
  }

  const unreadOf = (userId: number) =>
    sql<number>`(SELECT COUNT(*) FROM chat_message x WHERE x.room_id = m.room_id AND x.id > m.last_read_message_id AND (x.sender_id IS NULL OR x.sender_id <> ${userId}))`

  async function roomsWithUnread(userId: number, executor: Executor = db) {
    const row = await executor
      .selectFrom('chat_member as m')
      .innerJoin('chat_room as r', 'r.id', 'm.room_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('m.user_id', '=', userId)
      .whereRef('r.last_message_id', '>', 'm.last_read_message_id')
      .where(
        sql<boolean>`EXISTS (SELECT 1 FROM chat_message x WHERE x.room_id = m.room_id AND x.id > m.last_read_message_id AND (x.sender_id IS NULL OR x.sender_id <> ${userId}))`,
      )
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /** The caller's rooms, most recent activity first, each as the list shows it. */
  // A room's unread count for member m, computed only where the room has anything newer than m's mark.
  const unreadIfAny = (userId: number) =>
    sql<number>`CASE WHEN r.last_message_id > m.last_read_message_id THEN ${unreadOf(userId)} ELSE 0 END`

  /**
   * The caller's rooms, most recent activity first, each as the list shows it, in one query: with
   * `totals`, every row also carries the caller's room count and rooms with unread messages
   * (window functions over all their rooms, before the page is cut), so the list and the top
   * bar's icon need no second query. Each row carries both members' read marks (the room page).
   */
  async function roomRows(
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
          sql<number>`SUM(CASE WHEN r.last_message_id > m.last_read_message_id AND EXISTS (SELECT 1 FROM chat_message x WHERE x.room_id = m.room_id AND x.id > m.last_read_message_id AND (x.sender_id IS NULL OR x.sender_id <> ${userId})) THEN 1 ELSE 0 END) OVER ()`.as(
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

  /** Stores a message and its side effects in the caller's transaction; answers its id (the stored one for a repeated client id). */
  async function store(
    trx: Transaction<Database>,
    m: {
      roomId: number
      senderId: number | null
      clientMessageId: string
      kind: 'text' | 'system'
      body: string
      event?: ChatEvent
      params?: Record<string, string | number>
      fileIds?: number[]
    },
  ) {
    const now = new Date().toISOString()
    const inserted = await trx
      .insertInto('chat_message')
      .values({
        room_id: m.roomId,
        sender_id: m.senderId,
        client_message_id: m.clientMessageId,
        kind: m.kind,
        body: m.body,
        event: m.event ?? null,
        params: m.params ? JSON.stringify(m.params) : null,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['room_id', 'client_message_id']).doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted) return null
    const id = inserted.id
    if (m.fileIds?.length)
      await trx
        .insertInto('chat_attachment')
        .values(m.fileIds.map((file_id, position) => ({ message_id: id, position, file_id })))
        .execute()
    await trx.updateTable('chat_room').set({ last_message_id: id }).where('id', '=', m.roomId).execute()
    await trx
      .updateTable('chat_member')
      .set({ last_activity_at: now })
      .where('room_id', '=', m.roomId)
      .execute()
    // The sender has read what they sent. The other member, if this starts a run of unread
    // messages, is alerted once after AWAY_ALERT_MS and mailed once after AWAY_EMAIL_MS unless
    // they read it meanwhile (outbox.ts checks again).
    if (m.senderId != null)
      await trx
        .updateTable('chat_member')
        .set({ last_read_message_id: id })
        .where('room_id', '=', m.roomId)
        .where('user_id', '=', m.senderId)
        .execute()
    const others = await trx
      .selectFrom('chat_member')
      .select(['user_id', 'alert_state', 'email_state'])
      .where('room_id', '=', m.roomId)
      .where('user_id', '<>', m.senderId ?? 0)
      .execute()
    for (const o of others) {
      const away = { roomId: m.roomId, userId: o.user_id, messageId: id }
      if (o.alert_state === NONE) await enqueue(trx, AWAY_TOPIC, away, { delayMs: AWAY_ALERT_MS })
      if (o.email_state === NONE) await enqueue(trx, EMAIL_AWAY_TOPIC, away, { delayMs: AWAY_EMAIL_MS })
    }
    await trx
      .updateTable('chat_member')
      .set({ alert_state: SCHEDULED })
      .where('room_id', '=', m.roomId)
      .where('user_id', '<>', m.senderId ?? 0)
      .where('alert_state', '=', NONE)
      .execute()
    await trx
      .updateTable('chat_member')
      .set({ email_state: SCHEDULED })
      .where('room_id', '=', m.roomId)
      .where('user_id', '<>', m.senderId ?? 0)
      .where('email_state', '=', NONE)
      .execute()
    await enqueue(trx, MESSAGE_TOPIC, { messageId: id })
    return id
  }

  /** A stored message of this client id in the room: the sender's own answers it again; anyone else's is a conflict. */
  async function earlier(roomId: number, userId: number, clientMessageId: string, locale: Locale) {
    const row = await db
      .selectFrom('chat_message')
      .select(['id', 'sender_id'])
      .where('room_id', '=', roomId)
      .where('client_message_id', '=', clientMessageId)
      .executeTakeFirst()
    if (!row) return null
    if (row.sender_id !== userId)
      throw new ApiError(409, 'Conflict', 'clientMessageId: This id belongs to another message', {
        clientMessageId: ['This id belongs to another message'],
      })
    return (await messagesByIds(db, [row.id], locale))[0]
  }

  async function sendText(
    userId: number,
    roomId: number,
    input: { clientMessageId: string; text: string },
    locale: Locale,
    fileIds: (trx: Transaction<Database>) => Promise<number[]> = async () => [],
  ): Promise<ChatMessage> {
    const id = await db.transaction().execute(async (trx) => {
      await openMembership(trx, userId, roomId)
      return store(trx, {
        roomId,
        senderId: userId,
        clientMessageId: input.clientMessageId,
        kind: 'text',
        body: input.text,
        fileIds: await fileIds(trx),
      })
    })
    // A concurrent send with the same id won the insert: answer the stored message.
    if (id == null) return (await earlier(roomId, userId, input.clientMessageId, locale))!
    return (await messagesByIds(db, [id], locale))[0]
  }

  return {
    membership,
    async isMember(userId: number, roomId: number) {
      return !!(await db
        .selectFrom('chat_member')
        .select('room_id')
        .where('room_id', '=', roomId)
        .where('user_id', '=', userId)
        .executeTakeFirst())
    },
    /** The members of a room (for deliveries). */
    async members(roomId: number) {
      return (
        await db.selectFrom('chat_member').select('user_id').where('room_id', '=', roomId).execute()
      ).map((r) => r.user_id)
    },

    /** Opens the room of a project's client and a freelancer (the projects module decides who may); the same room every time. */
    async openRoom(
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
    },
    /** The room of a project and freelancer, if it was opened. */
    async roomOf(executor: Executor, projectId: number, freelancerId: number) {
      return (
        (
          await executor
            .selectFrom('chat_room')
            .select('id')
            .where('project_id', '=', projectId)
            .where('freelancer_id', '=', freelancerId)
            .executeTakeFirst()
        )?.id ?? null
      )
    },

    /**
     * Posts a contract event into the room of the project's client and the freelancer, in the
     * transaction that records the event. `source` identifies the event so it is posted once;
     * `actorId` is the member who caused it (not unread for them).
     */
    async systemMessage(
      trx: Transaction<Database>,
      e: {
        roomId: number
        event: ChatEvent
        params: Record<string, string | number>
        source: string
        actorId: number | null
      },
    ) {
      return store(trx, {
        roomId: e.roomId,
        senderId: e.actorId,
        clientMessageId: `system:${e.source}`,
        kind: 'system',
        body: '',
        event: e.event,
        params: e.params,
      })
    },

    async rooms(userId: number, page: number, pageSize: number, locale: Locale) {
      const rows = await roomRows(userId, { offset: (page - 1) * pageSize, limit: pageSize, totals: true })
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
            roomsWithUnread(userId),
          ])
      return { data: await presentRooms(rows, locale), page, pageSize, total, roomsWithUnread: withUnread }
    },
    roomsWithUnread,
    async roomsCount(userId: number) {
      return { unreadCount: await roomsWithUnread(userId) }
    },

    // Two queries for the newest page (the room card with both read marks, which is also the
    // membership check; the page with its attachments), run together: the page is thrown away
    // unread when the caller is not a member. An earlier page reads the room's last message too.
    async messages(
      userId: number,
      roomId: number,
      query: { before?: number; limit: number },
      locale: Locale,
    ) {
      const [[row], newestFirst] = await Promise.all([
        roomRows(userId, { roomId }),
        messagesPage(db, roomId, query.before, query.limit + 1, locale),
      ])
      if (!row) throw notFound('Room')
      const more = newestFirst.length > query.limit
      const data = newestFirst.slice(0, query.limit).reverse()
      const [room] = await presentRooms([row], locale, data)
      return {
        room,
        data,
        before: more ? data[0].id : null,
        myLastReadMessageId: row.last_read_message_id,
        otherLastReadMessageId: row.other_last_read_message_id,
      }
    },

    /** JSON send: text only. Answers after the commit; a repeated client id answers the stored message. */
    async send(
      userId: number,
      roomId: number,
      input: { clientMessageId: string; text: string },
      locale: Locale,
    ) {
      // A retry of a message stored before the room closed still answers it; a new one is refused in sendText.
      await membership(db, userId, roomId)
      return (
        (await earlier(roomId, userId, input.clientMessageId, locale)) ??
        sendText(userId, roomId, input, locale)
      )
    },

    /** Multipart send: the fields of the JSON send plus up to 5 `files`; nothing is stored unless all of it is valid. */
    async sendForm(userId: number, roomId: number, request: Request, locale: Locale) {
      // Strangers, and sends into a closed room, are refused before a byte of their upload is read.
      await openMembership(db, userId, roomId)
      const form = await files.receiveForm(request, {
        field: 'files',
        maxFiles: chatLimits.attachments,
        rule: attachmentRule,
        fieldSizeBytes: chatLimits.text * 4 + 1024,
      })
      try {
        const parsed = multipartInput.safeParse(form.fields)
        if (!parsed.success) throw validationError(parsed.error.issues, 'body')
        if (!parsed.data.text && !form.files.length)
          throw validationError(
            [{ code: 'custom', path: ['text'], message: 'must not be empty', input: '' }],
            'body',
          )
        const repeated = await earlier(roomId, userId, parsed.data.clientMessageId, locale)
        if (repeated) return repeated
        return await sendText(userId, roomId, parsed.data, locale, async (trx) =>
          (await form.store(trx, { purpose: 'chat', ownerId: userId })).map((f) => f.id),
        )
      } finally {
        await form.discard()
      }
    },

    /** Moves the caller's read mark forward to `upTo` (default: the newest message); never back. */
    async markRead(userId: number, roomId: number, upTo?: number) {
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
        this.countUnread(userId, roomId),
        roomsWithUnread(userId),
      ])
      return { roomId, lastReadMessageId: lastRead, unreadCount, roomsWithUnread: roomsWithUnreadNow }
    },

    /** The caller's unread messages in a room; their member row is the membership check (one query). */
    async countUnread(userId: number, roomId: number) {
      const row = await db
        .selectFrom('chat_member as m')
        .innerJoin('chat_room as r', 'r.id', 'm.room_id')
        .select(unreadIfAny(userId).as('n'))
        .where('m.room_id', '=', roomId)
        .where('m.user_id', '=', userId)
        .executeTakeFirst()
      if (!row) throw notFound('Room')
      return { unreadCount: Number(row.n) }
    },

    /** The public card of someone the caller shares a room with (themselves included); anyone else is not found. */
    async userInfo(userId: number, otherId: number) {
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
    },
  }
}

export type ChatService = ReturnType<typeof createChatService>
