import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import { deletedName, displayName, personName, supportName } from '../identity/display-name.ts'
import { listAdminActions } from './audit.ts'
import type { ComplaintDetail, ComplaintSubject, ComplaintSummary } from './contract.ts'
import { contractOfTicket, type DisputeMoney } from './tickets.ts'
import { supportTargets, type ComplaintState } from './machine.ts'
import type { Viewer } from './access.ts'
import { subjectLabel } from './subjects.ts'

// How a ticket reads: its summary in lists, and the whole ticket with its messages for its author,
// its other party, or support.

const summaryRows = (db: Kysely<Database>, ids: number[]) =>
  db
    .selectFrom('complaint as c')
    .leftJoin('app_user as a', 'a.id', 'c.assignee_id')
    .leftJoin('app_user as au', 'au.id', 'c.author_id')
    .leftJoin('app_user as op', 'op.id', 'c.other_party_id')
    .select([
      'c.id',
      'c.title',
      'c.status',
      'c.subject_kind',
      'c.subject_id',
      'c.subject_label',
      'c.source',
      'c.author_id',
      'c.name',
      'c.email',
      'c.assignee_id',
      'c.created_at',
      'c.updated_at',
      'a.first_name',
      'a.last_name',
      'a.status as assignee_status',
      'au.status as author_status',
    ])
    .select([
      'op.first_name as op_first',
      'op.last_name as op_last',
      'op.company_name as op_company',
      'op.status as op_status',
    ])
    .where('c.id', 'in', ids)
    .execute()
type SummaryRow = Awaited<ReturnType<typeof summaryRows>>[number]

/** The money held by the disputes of these tickets (decision 313), by ticket. */
async function heldByTicket(db: Kysely<Database>, ids: number[]) {
  const rows = await db
    .selectFrom('refund_request as r')
    .innerJoin('installment as i', 'i.id', 'r.installment_id')
    .innerJoin('payment_installment as pi', (j) =>
      j.onRef('pi.installment_id', '=', 'r.installment_id').on('pi.applied', '=', 1),
    )
    .select(['r.complaint_id', 'r.decide_by', 'r.currency', 'pi.amount_minor', 'i.refunded_minor'])
    .where('r.complaint_id', 'in', ids)
    .where('r.status', '=', 'disputed')
    .execute()
  const now = new Date().toISOString()
  return new Map(
    rows.map((r) => [
      r.complaint_id!,
      {
        amountMinor: r.amount_minor - r.refunded_minor,
        currency: r.currency,
        decideBy: r.decide_by,
        overdue: r.decide_by !== null && r.decide_by < now,
      },
    ]),
  )
}

function summaryOf(r: SummaryRow, held: ComplaintSummary['held']): ComplaintSummary {
  return {
    id: r.id,
    title: r.title,
    state: r.status as ComplaintState,
    subject: {
      kind: r.subject_kind as ComplaintSubject['kind'],
      id: r.subject_id,
      label: subjectLabel(
        r.subject_kind,
        r.subject_label,
        r.op_status
          ? displayName({
              first_name: r.op_first,
              last_name: r.op_last,
              company_name: r.op_company,
              status: r.op_status,
            })
          : null,
      ),
    },
    source: r.source,
    // The name the ticket was filed under, unless the account has been deleted since.
    author: {
      id: r.author_id,
      name: r.author_status === 'Deleted' ? deletedName() : r.name,
      email: r.email,
    },
    assignee: r.assignee_id
      ? {
          id: r.assignee_id,
          name: personName({
            first_name: r.first_name,
            last_name: r.last_name,
            status: r.assignee_status,
          }),
        }
      : null,
    held,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  }
}

/** The summaries of tickets, in the order of `rows`. */
export async function presentSummaries(
  db: Kysely<Database>,
  rows: Array<{ id: number }>,
): Promise<ComplaintSummary[]> {
  if (!rows.length) return []
  const ids = rows.map((r) => r.id)
  const [found, held] = await Promise.all([summaryRows(db, ids), heldByTicket(db, ids)])
  const byId = new Map(found.map((r) => [r.id, r]))
  return rows.map(({ id }) => summaryOf(byId.get(id)!, held.get(id) ?? null))
}

/** A ticket's messages, oldest first, each with its attachments. */
async function messagesOf(db: Kysely<Database>, id: number) {
  const messages = await db
    .selectFrom('complaint_message as m')
    .leftJoin('app_user as u', 'u.id', 'm.author_id')
    .select([
      'm.id',
      'm.author_id',
      'm.from_support',
      'm.body',
      'm.created_at',
      'u.first_name',
      'u.last_name',
      'u.status',
    ])
    .where('m.complaint_id', '=', id)
    .orderBy('m.id')
    .execute()
  const attachments = messages.length
    ? await db
        .selectFrom('complaint_attachment as a')
        .innerJoin('stored_file as f', 'f.id', 'a.file_id')
        .select(['a.message_id', 'f.id', 'f.original_name', 'f.size', 'f.mime'])
        .where(
          'a.message_id',
          'in',
          messages.map((m) => m.id),
        )
        .orderBy('f.id')
        .execute()
    : []
  return { messages, attachments }
}

/** The whole ticket as `view` reads it; `viewerId` tells the author's and the other party's own messages apart. */
export async function detail(
  { db, money }: { db: Kysely<Database>; money?: DisputeMoney },
  id: number,
  view: Viewer,
  viewerId?: number,
): Promise<ComplaintDetail> {
  const [summary] = await presentSummaries(db, [{ id }])
  const { messages, attachments } = await messagesOf(db, id)
  const state = summary.state
  const dispute = money ? await money.disputeOf(id) : null
  // Support may read the chat of the contract a ticket is about, and hold its money (decision 313).
  const contractId =
    view === 'support'
      ? await contractOfTicket(db, { subject_kind: summary.subject.kind, subject_id: summary.subject.id })
      : null
  return {
    ...summary,
    messages: messages.map((m) => ({
      id: m.id,
      fromSupport: m.from_support === 1,
      // The reader's own messages: support's for support, the reader's own for the author or the other party.
      mine:
        view === 'support'
          ? m.from_support === 1
          : m.from_support === 0 &&
            (viewerId === undefined ? m.author_id === summary.author.id : m.author_id === viewerId),
      // Support speaks as the team to the author (decision 212); support's own view names the agent.
      authorName:
        m.from_support === 1 && view !== 'support'
          ? supportName()
          : m.status !== null
            ? personName(m)
            : summary.author.name,
      body: m.body,
      attachments: attachments
        .filter((a) => a.message_id === m.id)
        .map((a) => ({ id: a.id, name: a.original_name, size: Number(a.size), mime: a.mime })),
      createdAt: new Date(m.created_at).toISOString(),
    })),
    viewer: view,
    dispute,
    holdable:
      view === 'support' && money && dispute?.status !== 'held' && contractId !== null
        ? await money.holdable(contractId)
        : [],
    canReadRoom: view === 'support' && (summary.subject.kind === 'chat_room' || contractId !== null),
    canReply: state !== 'closed' && (view === 'support' || summary.author.id !== null),
    nextStates: view === 'support' ? supportTargets(state) : [],
    audit:
      view === 'support'
        ? await listAdminActions(db, { objectType: 'complaint', objectId: id, order: 'asc' })
        : [],
  }
}
