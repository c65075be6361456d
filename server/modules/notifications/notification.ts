import type { NotificationType } from '#server/db/schema.ts'

// What the modules hand the notifications module to tell someone: it is stored (record.ts), mailed
// (notice-mails.ts) and pushed (push.ts) as one.

/** One notification to store: `source` identifies what produced it (e.g. `outbox:42`) so a retry cannot add it twice. */
export interface NotificationInput {
  userId: number
  source: string
  messageKey: string
  params?: Record<string, string | number>
  type: NotificationType
  projectId?: number | null
  roomId?: number | null
  senderId?: number | null
}
