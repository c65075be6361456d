import type { Kysely } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import { forbidden } from '#server/api/errors.ts'
import { bySource, list, unread, unreadCount } from './inbox.ts'
import { markAllRead, markRead, markRoomRead, record } from './record.ts'

export { COUNT_TOPIC, type NotificationInput } from './record.ts'

// The notifications module bound to its database: what its routes, the dashboard and the outbox
// handlers of other modules call.
export function createNotificationsService({ db }: { db: Kysely<Database> }) {
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
    record,
    markRoomRead,
    bySource: (userId: number, source: string, locale: Locale) => bySource(db, userId, source, locale),
  }
}

export type NotificationsService = ReturnType<typeof createNotificationsService>
