import type { Kysely, Transaction } from 'kysely'
import { z } from 'zod'
import type { Database, Locale } from '#server/db/schema.ts'
import { ApiError, validationError } from '#server/api/errors.ts'
import type { FileService } from '../files/service.ts'
import {
  documentExtensions,
  extensionOf,
  imageExtensions,
  mediaExtensions,
  problems,
} from '../files/rules.ts'
import { sendMessageInput, type ChatMessage } from './contract.ts'
import { membership, openMembership } from './membership.ts'
import { messagesByIds } from './present.ts'
import { chatLimits } from './rules.ts'
import { storeMessage } from './store.ts'

// A member sends a message: as JSON (text only) or as a multipart form with files. A client
// message id makes a send safe to repeat: the same sender's repeat answers the stored message.

type DB = Kysely<Database>
interface SendDeps {
  db: DB
  files: FileService
}
type TextInput = { clientMessageId: string; text: string }

/** Which upload rule a chat attachment's name picks: images keep docs/product.md §5's limit; documents, video and audio may be larger. */
function attachmentRule(fileName: string) {
  const ext = extensionOf(fileName)
  if ((imageExtensions as readonly string[]).includes(ext))
    return { kind: 'image' as const, limitKb: chatLimits.imageKb }
  if ((mediaExtensions as readonly string[]).includes(ext))
    return { kind: 'media' as const, limitKb: chatLimits.mediaKb }
  if ((documentExtensions as readonly string[]).includes(ext))
    return { kind: 'document' as const, limitKb: chatLimits.documentKb }
  return problems.invalidAttachment()
}

// In a form with files the text may be empty.
const multipartInput = sendMessageInput.extend({
  text: z.string().trim().max(chatLimits.text, `must be at most ${chatLimits.text} characters`).default(''),
})

/** A stored message of this client id in the room: the sender's own answers it again; anyone else's is a conflict. */
async function earlier(
  db: DB,
  message: { roomId: number; userId: number; clientMessageId: string },
  locale: Locale,
) {
  const row = await db
    .selectFrom('chat_message')
    .select(['id', 'sender_id'])
    .where('room_id', '=', message.roomId)
    .where('client_message_id', '=', message.clientMessageId)
    .executeTakeFirst()
  if (!row) return null
  if (row.sender_id !== message.userId)
    throw new ApiError(409, 'Conflict', 'clientMessageId: This id belongs to another message', {
      clientMessageId: ['This id belongs to another message'],
    })
  return (await messagesByIds(db, [row.id], locale))[0]
}

async function sendText(
  db: DB,
  to: { userId: number; roomId: number; locale: Locale },
  input: TextInput,
  fileIds: (trx: Transaction<Database>) => Promise<number[]> = async () => [],
): Promise<ChatMessage> {
  const { userId, roomId, locale } = to
  const id = await db.transaction().execute(async (trx) => {
    await openMembership(trx, userId, roomId)
    return storeMessage(trx, {
      roomId,
      senderId: userId,
      clientMessageId: input.clientMessageId,
      kind: 'text',
      body: input.text,
      fileIds: await fileIds(trx),
    })
  })
  // A concurrent send with the same id won the insert: answer the stored message.
  if (id == null)
    return (await earlier(db, { roomId, userId, clientMessageId: input.clientMessageId }, locale))!
  return (await messagesByIds(db, [id], locale))[0]
}

/** JSON send: text only. Answers after the commit; a repeated client id answers the stored message. */
export async function send(db: DB, userId: number, roomId: number, input: TextInput, locale: Locale) {
  // A retry of a message stored before the room closed still answers it; a new one is refused in sendText.
  await membership(db, userId, roomId)
  return (
    (await earlier(db, { roomId, userId, clientMessageId: input.clientMessageId }, locale)) ??
    sendText(db, { userId, roomId, locale }, input)
  )
}

/** Multipart send: the fields of the JSON send plus up to 5 `files`; nothing is stored unless all of it is valid. */
export async function sendForm(
  deps: SendDeps,
  to: { userId: number; roomId: number; locale: Locale },
  request: Request,
) {
  const { db, files } = deps
  const { userId, roomId, locale } = to
  // Strangers, and sends into a closed room, are refused before a byte of their upload is read.
  await openMembership(db, userId, roomId)
  const form = await files.receiveForm(request, {
    field: 'files',
    maxFiles: chatLimits.attachments,
    rule: attachmentRule,
    fieldSizeBytes: chatLimits.text * 4 + 1024,
  })
  try {
    const parsed = multipartInput.safeParse(form.fields)
    if (!parsed.success) throw validationError(parsed.error.issues, 'body')
    if (!parsed.data.text && !form.files.length)
      throw validationError(
        [{ code: 'custom', path: ['text'], message: 'must not be empty', input: '' }],
        'body',
      )
    const repeated = await earlier(
      db,
      { roomId, userId, clientMessageId: parsed.data.clientMessageId },
      locale,
    )
    if (repeated) return repeated
    return await sendText(db, to, parsed.data, async (trx) =>
      (await form.store(trx, { purpose: 'chat', ownerId: userId })).map((f) => f.id),
    )
  } finally {
    await form.discard()
  }
}

/** A room's attachments are for its two members (and their sender, who owns the file); the file sweep keeps those a message holds. */
export function registerAttachments(db: DB, files: FileService) {
  files.setReadPolicy('chat', async (file, caller) => {
    if (!caller) return false
    const found = await db
      .selectFrom('chat_attachment as a')
      .innerJoin('chat_message as m', 'm.id', 'a.message_id')
      .innerJoin('chat_member as cm', 'cm.room_id', 'm.room_id')
      .select('a.file_id')
      .where('a.file_id', '=', file.id)
      .where('cm.user_id', '=', caller.userId)
      .executeTakeFirst()
    return !!found
  })
  files.setReferences('chat', async (executor, ids) =>
    (
      await executor.selectFrom('chat_attachment').select('file_id').where('file_id', 'in', ids).execute()
    ).map((r) => r.file_id),
  )
}
