import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { OutboxHandler } from '#server/jobs/outbox.ts'
import { noticeFromOutbox, type NoticeDeliveryDeps } from '../notifications/outbox.ts'
import { createHiringAdmin, HIRING_NOTIFY_TOPIC, type HiringNotifyPayload } from './admin.ts'
import { createHiringRequests } from './requests.ts'
import type { Hits } from './views.ts'

// Hiring with Workneer's help (issue 41 item 5, decision 338), bound to the database.
export function createHiringService(deps: { db: DB; dialect: Dialect; hits: Hits }) {
  return { requests: createHiringRequests(deps), admin: createHiringAdmin(deps) }
}
export type HiringService = ReturnType<typeof createHiringService>

/**
 * After support proposed freelancers: the client is told in the bell and by email (the notice's
 * mail, in their language, decision 329), once per outbox row; their open tabs get the alert.
 */
export function hiringOutboxHandlers(deps: NoticeDeliveryDeps): Record<string, OutboxHandler> {
  return {
    [HIRING_NOTIFY_TOPIC]: async (payload: HiringNotifyPayload, row) => {
      await noticeFromOutbox(deps, row.id, [payload.userId], {
        messageKey: 'shortlist:hiring.notify.proposed',
        params: { id: payload.requestId, picks: payload.count },
        type: 'Hiring',
      })
    },
  }
}
