import { z } from 'zod'
import { endpoint, recordId, shownName } from '#server/api/contract.ts'
import { chatEvents, chatLimits, closedReasons, CLIENT_MESSAGE_ID } from './rules.ts'

// Chat (docs/product.md §7 "Chat", issue 16): rooms between a project's client and one freelancer, their
// messages, read state and unread counts. Meanings the spec leaves open (decision 150):
// - chat/rooms/{page}: the caller's rooms, most recent activity first, 1-based pages;
// - chat/rooms/count: how many of the caller's rooms have unread messages (the top bar's icon);
// - chat/{roomId} GET: a room's messages paged backwards from the newest (`before` = the `before`
//   of the previous answer); POST: send, JSON or multipart/form-data (the same fields plus up to 5
//   `files`); a repeated clientMessageId answers the message already stored, never a second one;
// - chat/{roomId}/read: marks the room read up to `upTo` (default: its newest message);
// - chat/user-info/{userId}: the public card of someone the caller shares a room with.
// A room the caller is not a member of answers 404, as does one that does not exist.
const id = recordId
const tag = 'Chat'

export const chatPerson = z.object({
  id: z.number(),
  name: shownName,
  firstName: z.string(),
  lastName: z.string(),
  /** files/{id}/download, or null without a picture. */
  imageUrl: z.string().nullable(),
})
export type ChatPerson = z.output<typeof chatPerson>

/** docs/product.md §3: 1 image, 2 video, 3 audio, 4 document. */
export const chatAttachment = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  attachmentType: z.number(),
  size: z.number(),
  mime: z.string(),
})

export const chatMessage = z.object({
  id: z.number(),
  roomId: z.number(),
  /** The sender's own id for the message (null for system messages). */
  clientMessageId: z.string().nullable(),
  /** null for a system message. */
  senderId: z.number().nullable(),
  kind: z.enum(['text', 'system']),
  /** The text as typed (plain text: the UI links URLs, never renders HTML); a system message's text in the reader's language. */
  text: z.string(),
  /** A system message's contract event and its parameters (project and installment titles). */
  event: z.enum(chatEvents).nullable(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  attachments: z.array(chatAttachment),
  createdAt: z.string(),
})
export type ChatMessage = z.output<typeof chatMessage>

export const chatRoom = z.object({
  id: z.number(),
  project: z.object({ id: z.number(), title: z.string() }),
  /** The other member, and the caller's side of the room. */
  other: chatPerson,
  myRole: z.enum(['client', 'freelancer']),
  /** The contract of the project between the two, once a proposal is accepted (links to the contract page). */
  contractId: z.number().nullable(),
  /** Why no one can post here any more (the contract completed or cancelled, the project closed without one); null while the room is open. */
  closed: z.enum(closedReasons).nullable(),
  lastMessage: chatMessage.nullable(),
  unreadCount: z.number(),
  /** The last message's time, or the room's creation. */
  lastActivityAt: z.string(),
  createdAt: z.string(),
})
export type ChatRoom = z.output<typeof chatRoom>

export const messagesPage = z.object({
  room: chatRoom,
  /** Oldest first within the page. */
  data: z.array(chatMessage),
  /** Pass as `before` to load the earlier page; null when there is none. */
  before: z.number().nullable(),
  /** Read state: the newest message each member has read (0: none). */
  myLastReadMessageId: z.number(),
  otherLastReadMessageId: z.number(),
})

/** JSON send. The multipart form has the same fields plus `files`; there `text` may be empty when files come. */
export const sendMessageInput = z.object({
  clientMessageId: z
    .string({ error: 'is required' })
    .regex(CLIENT_MESSAGE_ID, 'must be 8 to 64 letters, digits, - or _'),
  text: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'must not be empty')
    .max(chatLimits.text, `must be at most ${chatLimits.text} characters`),
})
export type SendMessageInput = z.output<typeof sendMessageInput>

export const readState = z.object({
  roomId: z.number(),
  lastReadMessageId: z.number(),
  unreadCount: z.number(),
  roomsWithUnread: z.number(),
})
const count = z.object({ unreadCount: z.number() })
const roomParams = z.object({ roomId: id })

export const chatContract = {
  // Literal paths come before {roomId} ones.
  roomsCount: endpoint({
    method: 'GET',
    path: 'chat/rooms/count',
    summary: "How many of the caller's rooms have unread messages",
    tag,
    access: 'user',
    response: count,
  }),
  rooms: endpoint({
    method: 'GET',
    path: 'chat/rooms/{page}',
    summary:
      "The caller's rooms, most recent first, with the other person, the project, the last message and the unread count",
    tag,
    access: 'user',
    params: z.object({ page: id.max(10_000, 'is too large') }),
    query: z.object({
      pageSize: z.coerce
        .number({ error: 'must be a number' })
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(chatLimits.roomsMax, `must be at most ${chatLimits.roomsMax}`)
        .default(chatLimits.roomsDefault),
    }),
    /** `roomsWithUnread` is chat/rooms/count's figure, so a page showing the list and the icon asks once. */
    response: z.object({
      data: z.array(chatRoom),
      page: z.number(),
      pageSize: z.number(),
      total: z.number(),
      roomsWithUnread: z.number(),
    }),
  }),
  userInfo: endpoint({
    method: 'GET',
    path: 'chat/user-info/{userId}',
    summary: 'The public card of someone the caller shares a room with',
    tag,
    access: 'user',
    params: z.object({ userId: id }),
    response: chatPerson,
  }),
  messages: endpoint({
    method: 'GET',
    path: 'chat/{roomId}',
    summary: "A room's messages, newest page first, earlier pages by `before`",
    tag,
    access: 'user',
    params: roomParams,
    query: z.object({
      before: id.optional(),
      limit: z.coerce
        .number({ error: 'must be a number' })
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(chatLimits.pageMax, `must be at most ${chatLimits.pageMax}`)
        .default(chatLimits.pageDefault),
    }),
    response: messagesPage,
  }),
  send: endpoint({
    method: 'POST',
    path: 'chat/{roomId}',
    summary:
      'Send a message (JSON, or multipart/form-data with up to 5 `files`); answered once stored; a repeated clientMessageId answers the stored message',
    tag,
    access: 'user',
    params: roomParams,
    body: sendMessageInput,
    multipart: true,
    response: chatMessage,
  }),
  markRead: endpoint({
    method: 'POST',
    path: 'chat/{roomId}/read',
    summary: 'Marks the room read up to a message (default: the newest)',
    tag,
    access: 'user',
    params: roomParams,
    body: z.object({ upTo: id.optional() }),
    response: readState,
  }),
  countUnread: endpoint({
    method: 'GET',
    path: 'chat/{roomId}/count-unread',
    summary: "The room's unread messages for the caller",
    tag,
    access: 'user',
    params: roomParams,
    response: count,
  }),
}
