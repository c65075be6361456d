import { chatLimits } from '#server/modules/chat/rules.ts'

// What the composer needs in the browser, with no zod (issue 38): the room's action parses every
// send with the schema in ./message-form.server.ts; this check only spares a round trip for a
// message that is empty or too long, with the same error keys (`chat` namespace).

/** A new client message id (the browser makes one after each send; the loader makes the first, for pages without JavaScript). */
export const newClientMessageId = () => crypto.randomUUID()

/** What the composer's file input accepts: the four kinds of attachment (docs/product.md §3). */
export const ATTACHMENT_ACCEPT = 'image/*,video/*,audio/*,.pdf,.docx,.xlsx,.csv,.txt,.dwg,.dxf,.ifc,.zip'

/** The schema's rules for the text and the file, as an error key or null. */
export function messageProblem(form: FormData): string | null {
  const text = String(form.get('text') ?? '').trim()
  const file = form.get('file')
  if (text.length > chatLimits.text) return 'errors.tooLong'
  if (!text && !(file instanceof File && file.size > 0)) return 'errors.empty'
  return null
}
