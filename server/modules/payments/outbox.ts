import type { OutboxHandler } from '#server/jobs/outbox.ts'
import { noticeFromOutbox, type NoticeDeliveryDeps } from '../notifications/outbox.ts'
import { PAYMENTS_NOTIFY_TOPIC } from './payouts.ts'

// Delivery of the payments module's notifications, after commit, by the outbox worker: stored once
// per recipient (keyed by the outbox row, so a retry stores nothing twice), then announced to their
// tabs. The texts are locales/*/payouts.json `notify.<kind>`, rendered in the reader's language.
export function paymentsOutboxHandlers(deps: NoticeDeliveryDeps): Record<string, OutboxHandler> {
  return {
    [PAYMENTS_NOTIFY_TOPIC]: async (
      payload: { userIds: number[]; kind: string; params: Record<string, string | number> },
      row,
    ) => {
      await noticeFromOutbox(deps, row.id, payload.userIds, {
        messageKey: `payouts:notify.${payload.kind}`,
        params: payload.params,
        type: 'Payment',
      })
    },
  }
}
