import { z } from 'zod'
import { chatLimits, CLIENT_MESSAGE_ID } from '#server/modules/chat/rules.ts'

// The composer's one schema, parsed by the room's action (server) and before a send in the browser.
// Messages are keys of the `chat` namespace (errors.*); `text` carries "write something or attach".
export const messageFormSchema = z
  .object({
    // The sender's id for the message: a retried or doubled submit sends the same one, and the
    // server answers the message it stored the first time instead of storing a second.
    clientMessageId: z.string({ error: 'errors.failed' }).regex(CLIENT_MESSAGE_ID, 'errors.failed'),
    text: z.string().trim().max(chatLimits.text, 'errors.tooLong').optional(),
    file: z.instanceof(File).optional(),
  })
  .refine((v) => Boolean(v.text) || Boolean(v.file), { path: ['text'], message: 'errors.empty' })

export type MessageForm = z.output<typeof messageFormSchema>

/** A new client message id (the browser makes one after each send; the loader makes the first, for pages without JavaScript). */
export const newClientMessageId = () => crypto.randomUUID()

/** What the composer's file input accepts: the four kinds of attachment (docs/product.md §3). */
export const ATTACHMENT_ACCEPT = 'image/*,video/*,audio/*,.pdf,.docx,.xlsx,.csv,.txt,.dwg,.dxf,.ifc,.zip'
