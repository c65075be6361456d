import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import { flag } from '#server/api/form-fields.ts'
import { channelsOf, noticeKinds, preferenceKinds } from './preferences.ts'

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
  // An invitation to a project, or a freelancer's answer to one (decision 335).
  'Invitation',
  'Verification',
  // Support proposed freelancers for a hiring request (decision 338).
  'Hiring',
  // A direct offer to a freelancer, or a step of its answer (decision 342).
  'Offer',
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

// The unread count comes with each page of the list, so the bell asks once a page (decision 366).
const list = z.object({ data: z.array(notification), unreadCount: z.number() })

/** A person's notification settings: the body of PUT notifications/preferences, which the settings page's form sends too. */
export const noticePreference = z
  .object({
    kind: z.enum(preferenceKinds, { error: 'must be one of the kinds of notices' }),
    site: flag('must be true or false'),
    email: flag('must be true or false'),
    push: flag('must be true or false').optional(),
  })
  .superRefine((p, ctx) => {
    // The newsletter is mailed only (decision 340): its other channels can only be off.
    for (const channel of ['site', 'push'] as const)
      if (p[channel] && !channelsOf(p.kind).includes(channel))
        ctx.addIssue({ code: 'custom', path: [channel], message: 'is not a channel of this kind' })
  })
export const preferencesInput = z.object({
  preferences: z
    .array(noticePreference)
    .max(preferenceKinds.length, 'lists each kind of notice at most once')
    .refine(
      (list) => new Set(list.map((p) => p.kind)).size === list.length,
      'lists each kind of notice at most once',
    ),
})
const preferences = z.object({
  preferences: z.array(
    z.object({ kind: z.enum(preferenceKinds), site: z.boolean(), email: z.boolean(), push: z.boolean() }),
  ),
})
/** The signed link in a notice mail that stops that kind's mails. */
export const emailOffParams = z.object({
  userId: recordId,
  kind: z.enum(noticeKinds, { error: 'must be one of the kinds of notices' }),
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'is not a valid link'),
})
/** A browser's push subscription (PushSubscription.toJSON()), the body of POST notifications/push-subscriptions. */
export const pushSubscriptionInput = z.object({
  endpoint: z
    .url({ protocol: /^https?$/, error: "must be a push service's address" })
    .max(1000, 'is too long'),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'must be a P-256 public key in base64url'),
    auth: z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be a 16-byte secret in base64url'),
  }),
  /** The device's name in the person's list; left out, it is read from the User-Agent header. */
  label: z.string().trim().min(1, 'must not be empty').max(80, 'is too long').optional(),
})
export const pushEndpointInput = pushSubscriptionInput.pick({ endpoint: true })
const count = z.object({ unreadCount: z.number() })
const listQuery = z.object({ hand })
const tag = 'Notifications'

export const notificationsContract = {
  list: endpoint({
    method: 'GET',
    path: 'notifications',
    summary:
      "The caller's notifications, newest first: the next 10 after `hand` of them, and how many are unread",
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
  markAllRead: endpoint({
    method: 'PUT',
    path: 'notifications/read',
    summary: 'Marks every unread notification of the caller read; answers how many it marked',
    tag,
    access: 'user',
    response: z.object({ marked: z.number(), unreadCount: z.number() }),
  }),
  preferences: endpoint({
    method: 'GET',
    path: 'notifications/preferences',
    summary:
      "The caller's notification settings: each kind of notice in the site, by email and by push, and the newsletter (by email only: the subscription of the caller's address)",
    tag,
    access: 'user',
    response: preferences,
  }),
  setPreferences: endpoint({
    method: 'PUT',
    path: 'notifications/preferences',
    summary:
      "Changes the notification settings of the kinds given (the others keep theirs); the newsletter's email starts or ends the subscription of the caller's verified address (409 while unverified); answers them all",
    tag,
    access: 'user',
    body: preferencesInput,
    response: preferences,
  }),
  pushKey: endpoint({
    method: 'GET',
    path: 'notifications/push-key',
    summary: "The site's VAPID public key, the applicationServerKey a browser subscribes to push with",
    tag,
    access: 'public',
    response: z.object({ publicKey: z.string() }),
  }),
  pushSubscribe: endpoint({
    method: 'POST',
    path: 'notifications/push-subscriptions',
    summary:
      "Turns push on in one of the caller's browsers; an endpoint another person registered becomes the caller's",
    tag,
    access: 'user',
    body: pushSubscriptionInput,
    response: z.object({ endpoint: z.string(), label: z.string() }),
  }),
  pushUnsubscribe: endpoint({
    method: 'DELETE',
    path: 'notifications/push-subscriptions',
    summary: "Turns push off in one of the caller's browsers (another person's endpoint is not found)",
    tag,
    access: 'user',
    body: pushEndpointInput,
    response: z.object({ endpoint: z.string() }),
  }),
  emailOff: endpoint({
    method: 'POST',
    path: 'notifications/email-off/{userId}/{kind}/{token}',
    summary:
      'Stops mails of one kind of notice, from the signed link at the foot of such a mail (no sign-in)',
    tag,
    access: 'public',
    params: emailOffParams,
    response: z.object({ kind: z.enum(noticeKinds) }),
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
