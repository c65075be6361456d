import type { DB } from '#server/db/database.ts'
import type { OutboxHandler } from '#server/jobs/outbox.ts'
import type { Hubs } from '#server/hubs.ts'
import type { NotificationsService } from '../notifications/service.ts'
import { asLocale } from '../notifications/texts.ts'
import { announce } from '../notifications/outbox.ts'
import { PAYMENTS_NOTIFY_TOPIC } from './payouts.ts'

// Delivery of the payments module's notifications, after commit, by the outbox worker: stored once
// per recipient (keyed by the outbox row, so a retry stores nothing twice), then announced to their
// tabs. The texts are locales/*/payouts.json `notify.<kind>`, rendered in the reader's language.
export function paymentsOutboxHandlers({
  db,
  notifications,
  hubs,
}: {
  db: DB
  notifications: NotificationsService
  hubs: Hubs | null
}): Record<string, OutboxHandler> {
  return {
    [PAYMENTS_NOTIFY_TOPIC]: async (
      payload: { userIds: number[]; kind: string; params: Record<string, string | number> },
      row,
    ) => {
      if (!payload.userIds.length) return
      const source = `outbox:${row.id}`
      const users = await db
        .selectFrom('app_user')
        .select(['id', 'language'])
        .where('id', 'in', payload.userIds)
        .execute()
      await notifications.record(
        db,
        users.map((u) => ({
          userId: u.id,
          source,
          messageKey: `payouts:notify.${payload.kind}`,
          params: payload.params,
          type: 'Payment' as const,
        })),
      )
      await announce(
        notifications,
        hubs,
        users.map((u) => ({ id: u.id, locale: asLocale(u.language) })),
        source,
      )
    },
  }
}
