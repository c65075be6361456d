import { z } from 'zod'
import { chatLimits, CLIENT_MESSAGE_ID } from '#server/modules/chat/rules.ts'

// The composer's one schema, parsed by the room's action on the server; the browser checks the same
// rules without zod (./forms.ts, issue 38).
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
