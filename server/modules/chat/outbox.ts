import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { Hubs } from '../../hubs.ts'
import { enqueue, type OutboxHandler } from '../../jobs/outbox.ts'
import { EMAIL_TOPIC } from '../../jobs/mailer.ts'
import { renderMail } from '../identity/mails.ts'
import type { NotificationsService } from '../notifications/service.ts'
import { announce } from '../notifications/outbox.ts'
import { asLocale } from '../notifications/texts.ts'
import { messagesByIds, peopleOf } from './present.ts'
import { CHAT_EVENT_TOPIC, roomGroup, type ChatEventPayload } from './rules.ts'
import { AWAY_TOPIC, EMAIL_AWAY_TOPIC, MESSAGE_TOPIC, READ_TOPIC, SENT, type ChatService } from './service.ts'

// Delivery of the chat module's side effects, after commit, by the outbox worker (decision 150).
// - chat.message: the message to the room's open pages (ReceiveMessage to `room:{id}`) and each
//   member's count of rooms with unread messages (countChat to every tab and device).
// - chat.read: the read receipt to the room's pages, and the reader's new count.
// - chat.event: a contract event (projects/transition.ts) as a system message in the room of the
//   project's client and the freelancer, opened if need be; posted once (keyed by the outbox row),
//   then delivered as any message. It reads the project's rows for the parties and the titles.
// - chat.away / chat.email: timers written with the first message of a run the member has not
//   read. When one fires and that message is still unread, the member gets one bell notification
//   (or one email), and no other until they have read the room (service.ts resets the state).
//   The state moves 1 → 2 with a compare-and-set in the transaction that stores the notification
//   or writes the email to the outbox, so a retried or doubled delivery sends nothing twice.
interface Away {
  roomId: number
  userId: number
  messageId: number
}

export function chatOutboxHandlers({
  db,
  chat,
  notifications,
  hubs,
  publicUrl,
}: {
  db: Kysely<Database>
  chat: ChatService
  notifications: NotificationsService
  hubs: Hubs | null
  publicUrl: string
}): Record<string, OutboxHandler> {
  async function counts(target: Hubs['chat'], userIds: number[]) {
    for (const id of userIds) await target.toUser(id).send('countChat', await chat.roomsWithUnread(id))
  }

  /** Claims the away step for this message: true once, and only while the message is still unread. */
  async function claim(trx: Kysely<Database>, column: 'alert_state' | 'email_state', a: Away) {
    const done = await trx
      .updateTable('chat_member')
      .set({ [column]: SENT })
      .where('room_id', '=', a.roomId)
      .where('user_id', '=', a.userId)
      .where(column, '=', 1)
      .where('last_read_message_id', '<', a.messageId)
      .executeTakeFirst()
    return Number(done.numUpdatedRows) === 1
  }

  /** Who wrote, about which project, for whom: what an alert or a mail says. */
  async function context(a: Away) {
    const message = await db
      .selectFrom('chat_message as m')
      .innerJoin('chat_room as r', 'r.id', 'm.room_id')
      .innerJoin('project as p', 'p.id', 'r.project_id')
      .select(['m.sender_id', 'm.kind', 'r.project_id', 'p.title'])
      .where('m.id', '=', a.messageId)
      .executeTakeFirst()
    const user = await db
      .selectFrom('app_user')
      .select(['id', 'email', 'first_name', 'language'])
      .where('id', '=', a.userId)
      .executeTakeFirst()
    if (!message || !user) return null
    const sender =
      message.kind === 'text' && message.sender_id
        ? (await peopleOf(db, [message.sender_id], asLocale(user.language))).get(message.sender_id)
        : undefined
    return { message, user, senderName: sender?.name ?? 'Workneer', locale: asLocale(user.language) }
  }

  /** The parties and titles an event is about. */
  async function partiesOf(e: ChatEventPayload): Promise<{
    project: { id: number; title: string; client_id: number }
    freelancerId: number
    params: Record<string, string>
  } | null> {
    const project = await db
      .selectFrom('project')
      .select(['id', 'title', 'client_id'])
      .where('id', '=', e.projectId)
      .executeTakeFirst()
    if (!project) return null
    if (e.entity === 'installment' && e.entityId) {
      const i = await db
        .selectFrom('installment as i')
        .innerJoin('contract as c', 'c.id', 'i.contract_id')
        .select(['i.title', 'c.freelancer_id'])
        .where('i.id', '=', e.entityId)
        .executeTakeFirst()
      return i
        ? { project, freelancerId: i.freelancer_id, params: { title: project.title, installment: i.title } }
        : null
    }
    if (e.entity === 'proposal' && e.entityId) {
      const p = await db
        .selectFrom('proposal')
        .select('freelancer_id')
        .where('id', '=', e.entityId)
        .executeTakeFirst()
      return p ? { project, freelancerId: p.freelancer_id, params: { title: project.title } } : null
    }
    return e.freelancerId ? { project, freelancerId: e.freelancerId, params: { title: project.title } } : null
  }

  return {
    [CHAT_EVENT_TOPIC]: async (e: ChatEventPayload, row) => {
      const about = await partiesOf(e)
      if (!about) return
      await db.transaction().execute(async (trx) => {
        const roomId = await chat.openRoom(trx, {
          projectId: about.project.id,
          clientId: about.project.client_id,
          freelancerId: about.freelancerId,
        })
        await chat.systemMessage(trx, {
          roomId,
          event: e.event,
          params: about.params,
          source: `outbox:${row.id}`,
          actorId: e.actorId,
        })
      })
    },
    [MESSAGE_TOPIC]: async (payload: { messageId: number }) => {
      const target = hubs?.chat
      if (!target) return
      const [message] = await messagesByIds(db, [payload.messageId], 'en')
      if (!message) return
      await target.toGroup(roomGroup(message.roomId)).send('ReceiveMessage', message)
      await counts(target, await chat.members(message.roomId))
    },
    [READ_TOPIC]: async (payload: { roomId: number; userId: number; lastReadMessageId: number }) => {
      const target = hubs?.chat
      if (!target) return
      await target.toGroup(roomGroup(payload.roomId)).send('read', {
        roomId: payload.roomId,
        userId: payload.userId,
        lastReadMessageId: payload.lastReadMessageId,
      })
      await counts(target, [payload.userId])
    },
    [AWAY_TOPIC]: async (a: Away, row) => {
      const about = await context(a)
      if (!about) return
      const source = `outbox:${row.id}`
      const stored = await db.transaction().execute(async (trx) => {
        if (!(await claim(trx, 'alert_state', a))) return false
        await notifications.record(trx, [
          {
            userId: a.userId,
            source,
            messageKey: 'chat-events:notify.newMessage',
            params: { name: about.senderName, title: about.message.title },
            type: 'Chat',
            projectId: about.message.project_id,
            roomId: a.roomId,
            senderId: about.message.sender_id,
          },
        ])
        return true
      })
      if (stored) await announce(notifications, hubs, [{ id: a.userId, locale: about.locale }], source)
    },
    [EMAIL_AWAY_TOPIC]: async (a: Away) => {
      const about = await context(a)
      if (!about) return
      const link = new URL(`/chats/${a.roomId}`, publicUrl).href
      await db.transaction().execute(async (trx) => {
        if (!(await claim(trx, 'email_state', a))) return
        const mail = renderMail('chatUnread', {
          to: about.user.email,
          language: about.user.language,
          name: about.user.first_name,
          link,
          vars: { sender: about.senderName, title: about.message.title },
        })
        await enqueue(trx, EMAIL_TOPIC, mail)
      })
    },
  }
}
