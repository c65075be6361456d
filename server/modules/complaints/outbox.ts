import type { OutboxHandler } from '#server/jobs/outbox.ts'
import { noticeFromOutbox, type NoticeDeliveryDeps } from '../notifications/outbox.ts'
import { COMPLAINT_NOTIFY_TOPIC, notifyKey, type ComplaintNotifyPayload } from './notify.ts'

// Delivery of a ticket's notification after commit: stored once per recipient (keyed by the outbox
// row, so a retry stores nothing twice), then the recipient's tabs get the alert and countNotify.
// The texts are this module's (locales/*/complaints.json `notify.<kind>`), rendered when read.
export function complaintsOutboxHandlers(deps: NoticeDeliveryDeps): Record<string, OutboxHandler> {
  return {
    [COMPLAINT_NOTIFY_TOPIC]: async (payload: ComplaintNotifyPayload, row) => {
      await noticeFromOutbox(deps, row.id, [payload.userId], {
        messageKey: notifyKey(payload.kind),
        params: payload.params,
        type: 'Complaint',
      })
    },
  }
}
