import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Hubs } from '#server/hubs.ts'
import { enqueue, type OutboxHandler } from '#server/jobs/outbox.ts'
import { EMAIL_TOPIC } from '#server/jobs/mailer.ts'
import { wantsMail } from '../notifications/preferences.ts'
import { mailSettings } from '../notifications/notice-mails.ts'
import { renderMail } from '../identity/mails.ts'
import type { NotificationsService } from '../notifications/service.ts'
import { announce } from '../notifications/outbox.ts'
import { asLocale } from '../notifications/texts.ts'
import { peopleOf } from './present.ts'
import { AWAY_TOPIC, EMAIL_AWAY_TOPIC, SENT } from './store.ts'

// The away timers (chat.away, chat.email), written with the first message of a run the member has
// not read. When one fires and that message is still unread, the member gets one bell notification
// (or one email), and no other until they have read the room (unread.ts resets the state). The
// state moves 1 → 2 with a compare-and-set in the transaction that stores the notification or
// writes the email to the outbox, so a retried or doubled delivery sends nothing twice.

interface Away {
  roomId: number
  userId: number
  messageId: number
}
type DB = Kysely<Database>

/** Claims the away step for this message: true once, and only while the message is still unread. */
async function claim(trx: DB, column: 'alert_state' | 'email_state', a: Away) {
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
async function context(db: DB, a: Away) {
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

export function awayHandlers(deps: {
  db: DB
  notifications: NotificationsService
  hubs: Hubs | null
  publicUrl: string
}): Record<string, OutboxHandler> {
  const { db, notifications, hubs, publicUrl } = deps
  return {
    [AWAY_TOPIC]: async (a: Away, row) => {
      const about = await context(db, a)
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
      const about = await context(db, a)
      if (!about) return
      const link = new URL(`/chats/${a.roomId}`, publicUrl).href
      await db.transaction().execute(async (trx) => {
        if (!(await claim(trx, 'email_state', a))) return
        if (!(await wantsMail(trx, a.userId, 'chat'))) return
        const mail = renderMail('chatUnread', {
          to: about.user.email,
          language: about.user.language,
          name: about.user.first_name,
          link,
          vars: { sender: about.senderName, title: about.message.title },
          settings: await mailSettings(trx, publicUrl, a.userId, 'chat', about.locale),
        })
        await enqueue(trx, EMAIL_TOPIC, mail)
      })
    },
  }
}
