import type { RouterContextProvider } from 'react-router'
import { apiFor } from '~/lib/api.server'
import { postMultipart } from '~/lib/api-form.server'
import { chatContract as c, type ChatMessage } from '#server/modules/chat/contract.ts'
import type { MessageForm } from './message-form.server'

// The chat pages' calls to the API (server/modules/chat): one place that knows the contract.

/** A room's newest page, or the page before a message id ("Load earlier messages"). */
export function roomPage(context: Readonly<RouterContextProvider>, roomId: number, before?: number) {
  return apiFor(context).call(c.messages, { params: { roomId }, query: before ? { before } : {} })
}

/** Sends a message: JSON for text alone, multipart when a file comes with it. Answers the stored message. */
export async function sendMessage(
  context: Readonly<RouterContextProvider>,
  roomId: number,
  message: MessageForm,
): Promise<ChatMessage> {
  const text = message.text ?? ''
  if (!message.file)
    return apiFor(context).call(c.send, {
      params: { roomId },
      body: { clientMessageId: message.clientMessageId, text },
    })
  const form = new FormData()
  form.set('clientMessageId', message.clientMessageId)
  form.set('text', text)
  form.append('files', message.file, message.file.name)
  return (await postMultipart(context, `chat/${roomId}`, form)) as ChatMessage
}

/**
 * Marks the room read when it has unread messages (opening a room reads it). Only a real change
 * is written, so a page that merely reloads tells no one anything.
 */
export async function readRoom(context: Readonly<RouterContextProvider>, roomId: number, upTo?: number) {
  const api = apiFor(context)
  if (upTo === undefined && (await api.call(c.countUnread, { params: { roomId } })).unreadCount === 0)
    return null
  return api.call(c.markRead, { params: { roomId }, body: upTo ? { upTo } : {} })
}
