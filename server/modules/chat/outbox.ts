import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Hubs } from '#server/hubs.ts'
import type { OutboxHandler } from '#server/jobs/outbox.ts'
import type { NotificationsService } from '../notifications/service.ts'
import { awayHandlers } from './away.ts'
import { contractEventHandlers } from './contract-events.ts'
import { messagesByIds } from './present.ts'
import { roomGroup } from './rules.ts'
import type { ChatService } from './service.ts'
import { MESSAGE_TOPIC, READ_TOPIC } from './store.ts'

// Delivery of the chat module's side effects, after commit, by the outbox worker (decision 150).
// - chat.message: the message to the room's open pages (ReceiveMessage to `room:{id}`) and each
//   member's count of rooms with unread messages (countChat to every tab and device).
// - chat.read: the read receipt to the room's pages, and the reader's new count.
// - chat.event: a contract event as a system message (contract-events.ts).
// - chat.away / chat.email: the away timers (away.ts).
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
  return {
    ...contractEventHandlers(db),
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
    ...awayHandlers({ db, notifications, hubs, publicUrl }),
  }
}
