import type { Kysely, Transaction } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import { badRequest, forbidden } from '#server/api/errors.ts'
import { bySource, list, unread, unreadCount } from './inbox.ts'
import { markAllRead, markRead, markRoomRead, record, type NotificationInput } from './record.ts'
import {
  preferencesOf,
  setPreferences,
  stopMails,
  type NoticeKind,
  type NoticePreference,
} from './preferences.ts'
import { stopLinkIsValid, type NoticeMailDeps } from './notice-mails.ts'
import { checkEndpoint, deviceLabel, subscribe, unsubscribe, type PushSubscriptionInput } from './push.ts'
import { vapidKeys } from './push-delivery.ts'

export { COUNT_TOPIC, type NotificationInput } from './record.ts'

type Executor = Kysely<Database> | Transaction<Database>

// The notifications module bound to its database: what its routes, the dashboard and the outbox
// handlers of other modules call.
export function createNotificationsService({
  db,
  mails,
  pushToLoopback = false,
}: {
  db: Kysely<Database>
  /** Without it (tools, some tests) notices are stored and never mailed. */
  mails?: NoticeMailDeps
  /** Tests only: push endpoints on loopback over plain http (a test's own push service). */
  pushToLoopback?: boolean
}) {
  return {
    list: (userId: number, hand: number, locale: Locale) => list(db, userId, hand, locale),
    unread: (userId: number, limit: number, locale: Locale) => unread(db, userId, limit, locale),
    count: async (userId: number) => ({ unreadCount: await unreadCount(db, userId) }),
    unreadCount: (userId: number) => unreadCount(db, userId),
    markRead: (userId: number, id: number, locale: Locale) => markRead(db, userId, id, locale),
    markAllRead: (userId: number) => markAllRead(db, userId),
    /** The hub-style aliases name a user: only the caller's own id is accepted. */
    ownId(callerId: number, userId: number) {
      if (callerId !== userId) throw forbidden()
      return userId
    },
    record: (executor: Executor, items: NotificationInput[]) => record(executor, items, mails),
    preferences: (userId: number) => preferencesOf(db, userId),
    setPreferences: (userId: number, given: NoticePreference[]) => setPreferences(db, userId, given),
    /** The link in a notice mail: a tampered one is refused (400 on `token`) and changes nothing. */
    async stopMails(userId: number, kind: NoticeKind, token: string) {
      if (!(await stopLinkIsValid(db, userId, kind, token))) throw badRequest('token', 'is not a valid link')
      await stopMails(db, userId, kind)
    },
    pushKey: async () => (await vapidKeys(db)).publicKey,
    subscribe(
      caller: { userId: number; sessionId: string },
      input: PushSubscriptionInput & { label?: string },
      userAgent: string | null,
    ) {
      checkEndpoint(input.endpoint, pushToLoopback)
      return subscribe(db, caller, input, input.label ?? deviceLabel(userAgent))
    },
    unsubscribe: (userId: number, endpoint: string) => unsubscribe(db, userId, endpoint),
    markRoomRead,
    bySource: (userId: number, source: string, locale: Locale) => bySource(db, userId, source, locale),
  }
}

export type NotificationsService = ReturnType<typeof createNotificationsService>
