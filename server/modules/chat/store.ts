import type { Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import type { ChatEvent } from './rules.ts'

// Storing a message with its side effects, in the caller's transaction: the room's newest message,
// both members' activity, the sender's read mark, the away timers of the other member, and the
// outbox row that delivers it (outbox.ts).

/** Outbox topics (delivered by outbox.ts after commit). */
export const MESSAGE_TOPIC = 'chat.message'
export const READ_TOPIC = 'chat.read'
export const AWAY_TOPIC = 'chat.away'
export const EMAIL_AWAY_TOPIC = 'chat.email'
/** An away member is notified once this long after the first message they have not read… */
export const AWAY_ALERT_MS = 30_000
/** …and emailed once if it is still unread this long after it came. */
export const AWAY_EMAIL_MS = 15 * 60_000

// Away state of a member for the current run of unread messages (chat_member.alert_state / email_state).
export const NONE = 0
const SCHEDULED = 1
export const SENT = 2

export interface NewMessage {
  roomId: number
  senderId: number | null
  clientMessageId: string
  kind: 'text' | 'system'
  body: string
  event?: ChatEvent
  params?: Record<string, string | number>
  fileIds?: number[]
}

/**
 * The other member, if this message starts a run of messages they have not read, is alerted once
 * after AWAY_ALERT_MS and mailed once after AWAY_EMAIL_MS unless they read it meanwhile
 * (outbox.ts checks again).
 */
async function scheduleAway(trx: Transaction<Database>, m: NewMessage, messageId: number) {
  const others = await trx
    .selectFrom('chat_member')
    .select(['user_id', 'alert_state', 'email_state'])
    .where('room_id', '=', m.roomId)
    .where('user_id', '<>', m.senderId ?? 0)
    .execute()
  for (const o of others) {
    const away = { roomId: m.roomId, userId: o.user_id, messageId }
    if (o.alert_state === NONE) await enqueue(trx, AWAY_TOPIC, away, { delayMs: AWAY_ALERT_MS })
    if (o.email_state === NONE) await enqueue(trx, EMAIL_AWAY_TOPIC, away, { delayMs: AWAY_EMAIL_MS })
  }
  for (const column of ['alert_state', 'email_state'] as const)
    await trx
      .updateTable('chat_member')
      .set({ [column]: SCHEDULED })
      .where('room_id', '=', m.roomId)
      .where('user_id', '<>', m.senderId ?? 0)
      .where(column, '=', NONE)
      .execute()
}

/** Stores a message and its side effects; answers its id, or null when the room already has this client id. */
export async function storeMessage(trx: Transaction<Database>, m: NewMessage) {
  const now = new Date().toISOString()
  const inserted = await trx
    .insertInto('chat_message')
    .values({
      room_id: m.roomId,
      sender_id: m.senderId,
      client_message_id: m.clientMessageId,
      kind: m.kind,
      body: m.body,
      event: m.event ?? null,
      params: m.params ? JSON.stringify(m.params) : null,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['room_id', 'client_message_id']).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted) return null
  const id = inserted.id
  if (m.fileIds?.length)
    await trx
      .insertInto('chat_attachment')
      .values(m.fileIds.map((file_id, position) => ({ message_id: id, position, file_id })))
      .execute()
  await trx.updateTable('chat_room').set({ last_message_id: id }).where('id', '=', m.roomId).execute()
  await trx
    .updateTable('chat_member')
    .set({ last_activity_at: now })
    .where('room_id', '=', m.roomId)
    .execute()
  // The sender has read what they sent.
  if (m.senderId != null)
    await trx
      .updateTable('chat_member')
      .set({ last_read_message_id: id })
      .where('room_id', '=', m.roomId)
      .where('user_id', '=', m.senderId)
      .execute()
  // A contract's event in the chat (a system message) has its own notification and email: only what a
  // person writes starts an away alert (issue 39: one event, one notification).
  if (m.kind === 'text') await scheduleAway(trx, m, id)
  await enqueue(trx, MESSAGE_TOPIC, { messageId: id })
  return id
}
