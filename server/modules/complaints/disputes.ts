import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { displayName } from '../identity/display-name.ts'
import { requireAdmin } from './access.ts'
import { recordAdminAction } from './audit.ts'
import { supportTransition, type ComplaintState } from './machine.ts'
import { mailAuthor } from './notify.ts'
import {
  addMessage,
  contractOfTicket,
  lock,
  setState,
  ticketSubject,
  type ComplaintsDeps,
} from './tickets.ts'
import { detail } from './views.ts'

// The admin's decision of a dispute (decisions 230–231), and the admin's read-only view of a chat
// room a complaint is about (decision 233).

type Executor = Kysely<Database> | Transaction<Database>
/** At most this many of a room's latest messages are shown to the admin, oldest first. */
const ROOM_LIMIT = 500

/** A room's messages as its members saw them (text, or a system event with its parameters), for support to read. */
export async function readRoom(executor: Executor, roomId: number) {
  const rows = await executor
    .selectFrom('chat_message as m')
    .leftJoin('app_user as u', 'u.id', 'm.sender_id')
    .select([
      'm.id',
      'm.kind',
      'm.body',
      'm.event',
      'm.params',
      'm.created_at',
      'u.first_name',
      'u.last_name',
      'u.company_name',
      'u.status',
    ])
    .where('m.room_id', '=', roomId)
    .orderBy('m.id', 'desc')
    .limit(ROOM_LIMIT)
    .execute()
  return rows.reverse().map((m) => ({
    id: m.id,
    // No one joined (every account has a status): a message of the room itself.
    sender: m.status === null ? null : displayName(m),
    kind: m.kind,
    body: m.body,
    event: m.event,
    params: (m.params ? JSON.parse(m.params) : {}) as Record<string, string | number>,
    createdAt: new Date(m.created_at).toISOString(),
  }))
}

/**
 * The admin decides the dispute of a complaint (decision 231): the money moves, the ticket is
 * resolved with the reason, and the audit row is written, all in the money's transaction.
 */
export async function decideDispute(
  deps: ComplaintsDeps,
  caller: Caller,
  id: number,
  input: { outcome: 'release' | 'refund' | 'split'; refundMinor?: number; reason: string },
) {
  const { db, dialect, money, publicUrl } = deps
  const adminId = requireAdmin(caller)
  await ticketSubject(db, id)
  if (!money) throw notFound('Dispute')
  await money.decideComplaint(
    id,
    input.outcome,
    input.refundMinor,
    adminId,
    input.reason,
    async (trx, decided) => {
      const row = (await lock(trx, dialect, id))!
      const from = row.status as ComplaintState
      const to: ComplaintState = supportTransition(from, 'resolved') ? 'resolved' : from
      if (to !== from) await setState(trx, id, from, to)
      // The amounts are facts the reader's screen words as money in their language (decision 321).
      await recordAdminAction(trx, {
        actorId: adminId,
        action: 'decide_dispute',
        objectType: 'complaint',
        objectId: id,
        fromState: from,
        toState: to,
        reason: input.reason,
        params: {
          outcome: input.outcome,
          refundMinor: decided.refundMinor,
          releaseMinor: decided.releaseMinor,
          currency: decided.currency,
        },
      })
      await addMessage(trx, id, adminId, true, input.reason)
      // Both sides' bells hear of the decision once, from the money (refunds:notify.disputeDecidedFor…):
      // one event, one notification (issue 39 item 6). The author keeps the ticket's mail with the reason.
      await mailAuthor(trx, publicUrl, row, `state.${to}`, { reason: input.reason })
    },
  )
  return detail(deps, id, 'support')
}

/**
 * An admin handling a complaint reads, read-only, the chat room it is about, or the chat of the
 * contract it concerns (a dispute's, decision 313); each reading is audited (decision 233).
 */
export async function complaintRoom(db: Kysely<Database>, caller: Caller, id: number) {
  const adminId = requireAdmin(caller)
  const ticket = await ticketSubject(db, id)
  const roomId = ticket.subject_kind === 'chat_room' ? ticket.subject_id : await contractRoom(db, ticket)
  if (!roomId) throw notFound('Chat room')
  return db.transaction().execute(async (trx) => {
    await recordAdminAction(trx, {
      actorId: adminId,
      action: 'read_room',
      objectType: 'chat_room',
      objectId: roomId,
      params: { complaintId: id },
    })
    return { roomId, messages: await readRoom(trx, roomId) }
  })
}

/** The chat room of the contract a ticket is about: its project's, between its two parties. */
async function contractRoom(
  db: Kysely<Database>,
  ticket: { subject_kind: string; subject_id: number | null },
) {
  const contractId = await contractOfTicket(db, ticket)
  if (contractId === null) return null
  const room = await db
    .selectFrom('contract as c')
    .innerJoin('chat_room as r', (j) =>
      j.onRef('r.project_id', '=', 'c.project_id').onRef('r.freelancer_id', '=', 'c.freelancer_id'),
    )
    .select('r.id')
    .where('c.id', '=', contractId)
    .executeTakeFirst()
  return room?.id ?? null
}
