import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import { renderNotification } from '../notifications/texts.ts'
import type { ChatMessage, ChatPerson } from './contract.ts'
import type { ChatEvent } from './rules.ts'
import { displayName, type NamedUser } from '../identity/display-name.ts'

type Executor = Kysely<Database> | Transaction<Database>
const downloadUrl = (id: number) => `files/${id}/download`

/** The public card of users, named as the marketplace shows them (displayName; `locale` when not the caller's). */
export async function peopleOf(db: Executor, ids: number[], locale?: Locale) {
  const unique = [...new Set(ids)]
  if (!unique.length) return new Map<number, ChatPerson>()
  const rows = await db
    .selectFrom('app_user')
    .select(['id', 'first_name', 'last_name', 'company_name', 'status', 'image_file_id'])
    .where('id', 'in', unique)
    .execute()
  return new Map(rows.map((u) => [u.id, personOf(u, locale)]))
}

export function personOf(
  u: NamedUser & { id: number; first_name: string; last_name: string; image_file_id: number | null },
  locale?: Locale,
): ChatPerson {
  return {
    id: u.id,
    name: displayName(u, locale),
    firstName: u.first_name,
    lastName: u.last_name,
    imageUrl: u.image_file_id ? downloadUrl(u.image_file_id) : null,
  }
}

/** Messages by id, with their attachments, in the reader's language (system messages' text). */
export async function messagesByIds(db: Executor, ids: number[], locale: Locale): Promise<ChatMessage[]> {
  if (!ids.length) return []
  const rows = await db.selectFrom('chat_message').selectAll().where('id', 'in', ids).orderBy('id').execute()
  const files = await db
    .selectFrom('chat_attachment as a')
    .innerJoin('stored_file as f', 'f.id', 'a.file_id')
    .select(['a.message_id', 'f.id', 'f.original_name', 'f.attachment_type', 'f.size', 'f.mime'])
    .where('a.message_id', 'in', ids)
    .orderBy('a.message_id')
    .orderBy('a.position')
    .execute()
  return present(
    rows,
    Map.groupBy(files, (f) => f.message_id),
    locale,
  )
}

/**
 * A room's newest `limit` messages before `before` (all when absent), newest first, with their
 * attachments, in one query: the page is chosen in a subquery and its attachments joined to it.
 */
export async function messagesPage(
  db: Executor,
  roomId: number,
  before: number | undefined,
  limit: number,
  locale: Locale,
): Promise<ChatMessage[]> {
  const rows = await db
    .selectFrom('chat_message as m')
    .leftJoin('chat_attachment as a', 'a.message_id', 'm.id')
    .leftJoin('stored_file as f', 'f.id', 'a.file_id')
    .selectAll('m')
    .select(['f.id as file_id', 'f.original_name', 'f.attachment_type', 'f.size', 'f.mime'])
    .where('m.id', 'in', (eb) => {
      let page = eb.selectFrom('chat_message').select('id').where('room_id', '=', roomId)
      if (before) page = page.where('id', '<', before)
      return page.orderBy('id', 'desc').limit(limit)
    })
    .orderBy('m.id', 'desc')
    .orderBy('a.position')
    .execute()
  const files = new Map<number, Attached[]>()
  const messages = new Map<number, (typeof rows)[number]>()
  for (const r of rows) {
    if (!messages.has(r.id)) messages.set(r.id, r)
    if (r.file_id != null)
      files.set(r.id, [
        ...(files.get(r.id) ?? []),
        {
          id: r.file_id,
          original_name: r.original_name!,
          attachment_type: r.attachment_type!,
          size: r.size!,
          mime: r.mime!,
        },
      ])
  }
  return present([...messages.values()], files, locale)
}

interface Attached {
  id: number
  original_name: string
  attachment_type: number
  size: number
  mime: string
}

function present(
  rows: Selectable<Database['chat_message']>[],
  byMessage: Map<number, Attached[]>,
  locale: Locale,
): ChatMessage[] {
  return rows.map((r) => {
    const params = r.params ? (JSON.parse(r.params) as Record<string, string | number>) : null
    const system = r.kind === 'system'
    return {
      id: r.id,
      roomId: r.room_id,
      clientMessageId: system ? null : r.client_message_id,
      // A system message's sender_id is the member whose action it records (so it is not unread for them).
      senderId: system ? null : r.sender_id,
      kind: r.kind,
      text: system ? systemText(locale, r.event as ChatEvent, params ?? {}) : r.body,
      event: system ? (r.event as ChatEvent) : null,
      params: system ? params : null,
      attachments: (byMessage.get(r.id) ?? []).map((f) => ({
        id: f.id,
        name: f.original_name,
        url: downloadUrl(f.id),
        attachmentType: f.attachment_type,
        size: f.size,
        mime: f.mime,
      })),
      createdAt: r.created_at,
    }
  })
}

/** locales/<lng>/chat-events.json `event.<name>`: one line for each contract event. */
export function systemText(locale: Locale, event: ChatEvent, params: Record<string, unknown>) {
  return renderNotification(locale, `chat-events:event.${event}`, params).title
}
