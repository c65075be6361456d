import type { Kysely } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import type { NotificationsService } from '../notifications/service.ts'
import type { FileService } from '../files/service.ts'
import { isMember, members, membership, userInfo } from './membership.ts'
import { messages, rooms } from './room-list.ts'
import { openRoom, roomOf, systemMessage } from './rooms.ts'
import { registerAttachments, send, sendForm } from './send.ts'
import { countUnread, markRead, roomsWithUnread } from './unread.ts'

// The chat module bound to its dependencies: what its routes, the hubs, the outbox handlers and
// the projects module call. Each use case lives in its own file.
export function createChatService({
  db,
  files,
  notifications,
}: {
  db: Kysely<Database>
  files: FileService
  notifications: NotificationsService
}) {
  registerAttachments(db, files)
  return {
    membership,
    isMember: (userId: number, roomId: number) => isMember(db, userId, roomId),
    members: (roomId: number) => members(db, roomId),
    openRoom,
    roomOf,
    systemMessage,
    rooms: (userId: number, page: number, pageSize: number, locale: Locale) =>
      rooms(db, userId, { page, pageSize, locale }),
    roomsWithUnread: (userId: number) => roomsWithUnread(db, userId),
    roomsCount: async (userId: number) => ({ unreadCount: await roomsWithUnread(db, userId) }),
    messages: (userId: number, roomId: number, query: { before?: number; limit: number }, locale: Locale) =>
      messages(db, userId, roomId, { ...query, locale }),
    send: (
      userId: number,
      roomId: number,
      input: { clientMessageId: string; text: string },
      locale: Locale,
    ) => send(db, userId, roomId, input, locale),
    sendForm: (userId: number, roomId: number, request: Request, locale: Locale) =>
      sendForm({ db, files }, { userId, roomId, locale }, request),
    markRead: (userId: number, roomId: number, upTo?: number) =>
      markRead({ db, notifications }, userId, roomId, upTo),
    countUnread: (userId: number, roomId: number) => countUnread(db, userId, roomId),
    userInfo: (userId: number, otherId: number) => userInfo(db, userId, otherId),
  }
}

export type ChatService = ReturnType<typeof createChatService>
