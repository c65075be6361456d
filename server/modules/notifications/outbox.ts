import type { DB } from '#server/db/database.ts'
import type { Hubs } from '#server/hubs.ts'
import type { Locale } from '#server/db/schema.ts'
import type { OutboxHandler } from '#server/jobs/outbox.ts'
import { COUNT_TOPIC, type NotificationsService } from './service.ts'
import type { NotificationInput } from './notification.ts'
import { asLocale } from './texts.ts'

// Delivery of the notifications module's own side effect, after commit, by the outbox worker: a
// read changes the reader's unread count (the service writes the row in the read's transaction),
// so every tab and device of theirs gets countNotify with the count as it is at delivery; their
// bells reload. A retry sends the same, current count. Best effort, as every live message.
export function notificationsOutboxHandlers({
  notifications,
  hubs,
}: {
  notifications: NotificationsService
  hubs: Hubs | null
}): Record<string, OutboxHandler> {
  return {
    [COUNT_TOPIC]: async (payload: { userId: number }) => {
      const target = hubs?.notifications
      if (target)
        await target
          .toUser(payload.userId)
          .send('countNotify', await notifications.unreadCount(payload.userId))
    },
  }
}

/**
 * After notifications from `source` were stored: each recipient's every tab gets the alert item
 * (docs/product.md §3) in their language and countNotify with their unread count. Best effort, as every live
 * message: the rows are stored, and a page load shows them anyway.
 */
export async function announce(
  notifications: NotificationsService,
  hubs: Hubs | null,
  users: Array<{ id: number; locale: Locale }>,
  source: string,
) {
  const target = hubs?.notifications
  if (!target) return
  for (const u of users) {
    const alert = await notifications.bySource(u.id, source, u.locale)
    if (alert)
      await target.toUser(u.id).send('ReceiveNotification', {
        id: alert.id,
        title: alert.title,
        content: alert.content,
        isRead: alert.isRead,
        type: alert.type,
        projectId: alert.projectId,
      })
    await target.toUser(u.id).send('countNotify', await notifications.unreadCount(u.id))
  }
}

/** What a module's outbox handlers need to deliver its notices. */
export interface NoticeDeliveryDeps {
  db: DB
  notifications: NotificationsService
  /** The hubs, once the server has them; null before (deliveries then reach no browser). */
  hubs: Hubs | null
}

/**
 * One notice from an outbox delivery to each of `userIds`: stored once per outbox row (the row is its
 * source, so a retry stores nothing twice), then announced to their tabs in their language. Nothing
 * for unknown people.
 */
export async function noticeFromOutbox(
  deps: NoticeDeliveryDeps,
  rowId: number,
  userIds: number[],
  notice: Omit<NotificationInput, 'userId' | 'source'>,
) {
  if (!userIds.length) return
  const source = `outbox:${rowId}`
  const users = await deps.db
    .selectFrom('app_user')
    .select(['id', 'language'])
    .where('id', 'in', userIds)
    .execute()
  if (!users.length) return
  await deps.notifications.record(
    deps.db,
    users.map((u) => ({ ...notice, userId: u.id, source })),
  )
  await announce(
    deps.notifications,
    deps.hubs,
    users.map((u) => ({ id: u.id, locale: asLocale(u.language) })),
    source,
  )
}
