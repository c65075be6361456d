import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'

// Stored notifications (docs/product.md §3 "Notification", §7 "Notifications"). The hub-style paths take a
// user id because the original client sent one; it must be the caller's own (403 otherwise), so
// they are aliases of the plain endpoints, never a way to read someone else's bell.
export const NOTIFICATION_PAGE = 10
export const notificationTypes = [
  'Project',
  'Proposal',
  'ProjectStatus',
  'Chat',
  'Complaint',
  'Payment',
  // A job alert (decision 328): a new match of a saved search.
  'SavedSearch',
] as const

const id = recordId
const hand = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must not be negative')
  .max(100_000, 'is too large')
  .default(0)

export const notification = z.object({
  id: z.number(),
  title: z.string(),
  content: z.string(),
  isRead: z.boolean(),
  createdDate: z.string(),
  senderImage: z.string().nullable(),
  roomId: z.number().nullable(),
  projectId: z.number().nullable(),
  type: z.enum(notificationTypes),
})
export type Notification = z.output<typeof notification>

const list = z.object({ data: z.array(notification) })
const count = z.object({ unreadCount: z.number() })
const listQuery = z.object({ hand })
const tag = 'Notifications'

export const notificationsContract = {
  list: endpoint({
    method: 'GET',
    path: 'notifications',
    summary: "The caller's notifications, newest first: the next 10 after `hand` of them",
    tag,
    access: 'user',
    query: listQuery,
    response: list,
  }),
  count: endpoint({
    method: 'GET',
    path: 'notifications/count',
    summary: "How many of the caller's notifications are unread",
    tag,
    access: 'user',
    response: count,
  }),
  markRead: endpoint({
    method: 'PUT',
    path: 'notifications/{id}/read',
    summary: "Marks one of the caller's notifications read; answers it",
    tag,
    access: 'user',
    params: z.object({ id }),
    response: notification,
  }),
  hubList: endpoint({
    method: 'GET',
    path: 'notificationHub/notifications/{userId}',
    summary: "Alias of `notifications` for the caller's own id",
    tag,
    access: 'user',
    params: z.object({ userId: id }),
    query: listQuery,
    response: list,
  }),
  hubCount: endpoint({
    method: 'GET',
    path: 'notificationHub/unreadNotifications/{userId}',
    summary: "Alias of `notifications/count` for the caller's own id",
    tag,
    access: 'user',
    params: z.object({ userId: id }),
    response: count,
  }),
  hubMarkRead: endpoint({
    method: 'PUT',
    path: 'notificationHub/UpdateReadStatusForNotification/{id}',
    summary: 'Alias of `notifications/{id}/read`',
    tag,
    access: 'user',
    params: z.object({ id }),
    response: notification,
  }),
}
