import type { Hubs } from '../../hubs.ts'
import type { OutboxHandler } from '../../jobs/outbox.ts'
import { COUNT_TOPIC, type NotificationsService } from './service.ts'

// Delivery of the notifications module's own side effect, after commit, by the outbox worker: a
// read changes the reader's unread count (the service writes the row in the read's transaction),
// so every tab and device of theirs gets countNotify with the count as it is at delivery; their
// bells reload. A retry sends the same, current count. Best effort, as every live message.
export function notificationsOutboxHandlers({ notifications, hubs }: { notifications: NotificationsService; hubs: () => Hubs | null }): Record<string, OutboxHandler> {
  return {
    [COUNT_TOPIC]: async (payload: { userId: number }) => {
      const target = hubs()?.notifications
      if (target) await target.toUser(payload.userId).send('countNotify', await notifications.unreadCount(payload.userId))
    },
  }
}
