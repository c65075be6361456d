import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely'
import type { z } from 'zod'
import type { Dialect } from '../../db/migrations/helpers.ts'
import type { Database, Locale } from '../../db/schema.ts'
import type { Caller } from '../../api/handler.ts'
import { ApiError, forbidden, notFound, validationError } from '../../api/errors.ts'
import { enqueue } from '../../jobs/outbox.ts'
import { EMAIL_TOPIC, type EmailMessage } from '../../jobs/mailer.ts'
import type { FileService } from '../files/service.ts'
import { Role } from '../identity/permissions.ts'
import { asLocale, renderNotification } from '../notifications/texts.ts'
import {
  AUDIT_PAGE,
  auditFacets,
  countAdminActions,
  listAdminActions,
  recordAdminAction,
  type AdminActionName,
} from './audit.ts'
import type {
  auditQuery,
  ComplaintDetail,
  ComplaintSubject,
  ComplaintSummary,
  queueQuery,
} from './contract.ts'
import { authorReplyTransition, supportTargets, supportTransition, type ComplaintState } from './machine.ts'
import {
  complaintAttachmentRule,
  complaintLimits,
  newComplaintSchema,
  parseSubject,
  partyKinds,
  replySchema,
  type NewComplaint,
  type SubjectKind,
} from './rules.ts'
import { readRoom, type DisputeMoney } from './disputes.ts'
import { deletedName, displayName, personName, supportName } from '../identity/display-name.ts'

type Executor = Kysely<Database> | Transaction<Database>
type Trx = Transaction<Database>

/** The outbox topic of a ticket's notification (outbox.ts stores it in the bell and tells the tabs). */
export const COMPLAINT_NOTIFY_TOPIC = 'complaints.notify'
export interface ComplaintNotifyPayload {
  userId: number
  complaintId: number
  kind: string
  params: Record<string, string | number>
}

/** A notification's text key: a kind of this module's (`reply`), or one naming its namespace (`disputes:notify.partyReplied`). */
export const notifyKey = (kind: string) => (kind.includes(':') ? kind : `complaints:notify.${kind}`)

const FILE_PURPOSE = 'complaint'
const isAdmin = (caller: Caller) => caller.roles.includes(Role.SuperAdmin)
type Files = Awaited<ReturnType<FileService['receiveForm']>>
type Subject = ComplaintSubject & { otherPartyId: number | null; stored: string }

/**
 * A subject's label: what is stored with the ticket (a title) and, for a contract, a chat or a
 * person, the other party's name as it reads now. The name is never stored: an account deleted
 * later is then named as deleted on every ticket (decision 236, 271), not by its old name.
 */
function subjectLabel(kind: string, stored: string, otherName: string | null) {
  if (kind === 'user') return otherName ?? stored
  return (kind === 'contract' || kind === 'chat_room') && otherName ? `${stored} (${otherName})` : stored
}
const subjectOf = (
  kind: SubjectKind,
  id: number | null,
  stored: string,
  other: { id: number; name: string } | null,
): Subject => ({
  kind,
  id,
  stored,
  label: subjectLabel(kind, stored, other?.name ?? null),
  otherPartyId: other?.id ?? null,
})
type Viewer = 'author' | 'party' | 'support'

function conflict(detail: string, state: string) {
  return new ApiError(409, 'Conflict', detail, { state: [state] })
}

export function createComplaintsService({
  db,
  dialect,
  files,
  publicUrl,
  money,
}: {
  db: Kysely<Database>
  dialect: Dialect
  files: FileService
  publicUrl: string
  money?: DisputeMoney
}) {
  // A ticket's files are for its author, the other party it shows itself to (decision 232) and support; anyone else gets 404 (as for the ticket).
  files.setReadPolicy(FILE_PURPOSE, async (file, caller) => {
    if (!caller) return false
    if (isAdmin(caller)) return true
    const found = await db
      .selectFrom('complaint_attachment as a')
      .innerJoin('complaint_message as m', 'm.id', 'a.message_id')
      .innerJoin('complaint as c', 'c.id', 'm.complaint_id')
      .select('a.file_id')
      .where('a.file_id', '=', file.id)
      .where((eb) => readableBy(eb, caller.userId))
      .executeTakeFirst()
    return !!found
  })
  files.setReferences(FILE_PURPOSE, async (executor, ids) =>
    (
      await executor
        .selectFrom('complaint_attachment')
        .select('file_id')
        .where('file_id', 'in', ids)
        .execute()
    ).map((r) => r.file_id),
  )

  /** The tickets a user may read: their own, and those naming them as the other party of a kind that shows it (decision 232). */
  const readableBy = (eb: ExpressionBuilder<{ c: Database['complaint'] }, 'c'>, userId: number) =>
    eb.or([
      eb('c.author_id', '=', userId),
      eb.and([eb('c.other_party_id', '=', userId), eb('c.subject_kind', 'in', partyKinds)]),
    ])

  /** How `userId` reads ticket `id`: as its author, as its other party, or not at all (404, like a ticket that does not exist). */
  async function viewerOf(executor: Executor, userId: number, id: number): Promise<'author' | 'party'> {
    const row = await executor
      .selectFrom('complaint')
      .select(['author_id', 'other_party_id', 'subject_kind'])
      .where('id', '=', id)
      .executeTakeFirst()
    if (row && row.author_id === userId) return 'author'
    if (row && row.other_party_id === userId && partyKinds.includes(row.subject_kind as SubjectKind))
      return 'party'
    throw notFound('Complaint')
  }

  function requireAdmin(caller: Caller) {
    if (!isAdmin(caller)) throw forbidden()
    return caller.userId
  }

  /** Everything the user may complain about: the objects they are part of, and the platform. */
  async function subjectsOf(userId: number): Promise<Subject[]> {
    const contracts = await db
      .selectFrom('contract as c')
      .innerJoin('project as p', 'p.id', 'c.project_id')
      .innerJoin('app_user as cl', 'cl.id', 'c.client_id')
      .innerJoin('app_user as fr', 'fr.id', 'c.freelancer_id')
      .select([
        'c.id',
        'c.client_id',
        'c.freelancer_id',
        'p.id as project_id',
        'p.title',
        'cl.first_name as cf',
        'cl.last_name as cl',
        'cl.company_name as cc',
        'cl.status as cs',
        'fr.first_name as ff',
        'fr.last_name as fl',
        'fr.company_name as fc',
        'fr.status as fs',
      ])
      .where((eb) => eb.or([eb('c.client_id', '=', userId), eb('c.freelancer_id', '=', userId)]))
      .orderBy('c.id', 'desc')
      .execute()
    const otherOf = (c: (typeof contracts)[number]) =>
      c.client_id === userId
        ? {
            id: c.freelancer_id,
            name: displayName({ first_name: c.ff, last_name: c.fl, company_name: c.fc, status: c.fs }),
          }
        : {
            id: c.client_id,
            name: displayName({ first_name: c.cf, last_name: c.cl, company_name: c.cc, status: c.cs }),
          }
    const projects = await db
      .selectFrom('project')
      .select(['id', 'title'])
      .where('client_id', '=', userId)
      .where('status', '<>', 'draft')
      .orderBy('id', 'desc')
      .execute()
    const installments = contracts.length
      ? await db
          .selectFrom('installment')
          .select(['id', 'contract_id', 'title'])
          .where(
            'contract_id',
            'in',
            contracts.map((c) => c.id),
          )
          .orderBy('contract_id', 'desc')
          .orderBy('id')
          .execute()
      : []
    const rooms = await db
      .selectFrom('chat_member as m')
      .innerJoin('chat_room as r', 'r.id', 'm.room_id')
      .innerJoin('project as p', 'p.id', 'r.project_id')
      .innerJoin('chat_member as o', (j) =>
        j.onRef('o.room_id', '=', 'm.room_id').onRef('o.user_id', '<>', 'm.user_id'),
      )
      .innerJoin('app_user as u', 'u.id', 'o.user_id')
      .select([
        'r.id',
        'p.title',
        'u.id as other_id',
        'u.first_name',
        'u.last_name',
        'u.company_name',
        'u.status',
      ])
      .where('m.user_id', '=', userId)
      .orderBy('r.id', 'desc')
      .execute()
    const out: Subject[] = []
    const seenProject = new Set<number>()
    for (const p of projects) {
      seenProject.add(p.id)
      out.push(subjectOf('project', p.id, p.title, null))
    }
    for (const c of contracts) {
      // A freelancer's project is the one of their contract; its other party is the client.
      if (!seenProject.has(c.project_id)) {
        seenProject.add(c.project_id)
        out.push(subjectOf('project', c.project_id, c.title, c.client_id === userId ? null : otherOf(c)))
      }
    }
    const byContract = new Map(contracts.map((c) => [c.id, c]))
    for (const c of contracts) out.push(subjectOf('contract', c.id, c.title, otherOf(c)))
    for (const i of installments) {
      const c = byContract.get(i.contract_id)!
      out.push(subjectOf('installment', i.id, `${c.title}: ${i.title}`, otherOf(c)))
    }
    for (const r of rooms)
      out.push(subjectOf('chat_room', r.id, r.title, { id: r.other_id, name: displayName(r) }))
    const people = new Map<number, string>()
    for (const c of contracts) people.set(otherOf(c).id, otherOf(c).name)
    for (const r of rooms) people.set(r.other_id, displayName(r))
    for (const [id, name] of people) out.push(subjectOf('user', id, '', { id, name }))
    out.push(subjectOf('platform', null, 'Workneer', null))
    return out
  }

  /** The subject named by the form, if the user is part of it; anything else is refused naming the field. */
  async function subjectFor(userId: number, value: string) {
    const { kind, id } = parseSubject(value)
    const found = (await subjectsOf(userId)).find((s) => s.kind === kind && s.id === id)
    if (!found)
      throw new ApiError(400, 'Invalid Info', 'subject: is not something you are part of', {
        subject: ['is not something you are part of'],
      })
    return found
  }

  async function presentSummaries(rows: Array<{ id: number }>): Promise<ComplaintSummary[]> {
    if (!rows.length) return []
    const found = await db
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
      .where(
        'c.id',
        'in',
        rows.map((r) => r.id),
      )
      .execute()
    const byId = new Map(found.map((r) => [r.id, r]))
    return rows.map(({ id }) => {
      const r = byId.get(id)!
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
        createdAt: new Date(r.created_at).toISOString(),
        updatedAt: new Date(r.updated_at).toISOString(),
      }
    })
  }

  async function detail(id: number, view: Viewer, viewerId?: number): Promise<ComplaintDetail> {
    const [summary] = await presentSummaries([{ id }])
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
    const state = summary.state
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
      dispute: money && summary.subject.kind === 'installment' ? await money.disputeOf(id) : null,
      canReply: state !== 'closed' && (view === 'support' || summary.author.id !== null),
      nextStates: view === 'support' ? supportTargets(state) : [],
      audit:
        view === 'support'
          ? await listAdminActions(db, { objectType: 'complaint', objectId: id, order: 'asc' })
          : [],
    }
  }

  /** Locks the ticket row for a change (PostgreSQL; SQLite's write transaction already holds the lock). */
  async function lock(trx: Trx, id: number) {
    let q = trx.selectFrom('complaint').selectAll().where('id', '=', id)
    if (dialect === 'postgres') q = q.forUpdate()
    return q.executeTakeFirst()
  }

  async function addMessage(
    trx: Trx,
    complaintId: number,
    authorId: number | null,
    fromSupport: boolean,
    body: string,
    upload?: Files,
    ownerId?: number,
  ) {
    const now = new Date().toISOString()
    const message = await trx
      .insertInto('complaint_message')
      .values({
        complaint_id: complaintId,
        author_id: authorId,
        from_support: fromSupport ? 1 : 0,
        body,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (upload?.files.length) {
      const stored = await upload.store(trx, { purpose: FILE_PURPOSE, ownerId: ownerId ?? authorId })
      await trx
        .insertInto('complaint_attachment')
        .values(stored.map((f) => ({ message_id: message.id, file_id: f.id })))
        .execute()
    }
    await trx.updateTable('complaint').set({ updated_at: now }).where('id', '=', complaintId).execute()
    return message.id
  }

  /** Moves a ticket from the state read under lock to `to` (compare-and-set). */
  async function setState(trx: Trx, id: number, from: string, to: ComplaintState) {
    const done = await trx
      .updateTable('complaint')
      .set({ status: to, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst()
    if (Number(done.numUpdatedRows) !== 1)
      throw conflict('The ticket changed meanwhile; reload and try again', from)
  }

  /**
   * Tells the ticket's author (in the bell when they have an account, and by mail always: a visitor
   * from /contact-us has only their address), in their language, in the change's transaction.
   * Decision 213: every state change support makes, and every reply of support's, is told.
   */
  async function tellAuthor(
    trx: Trx,
    ticket: {
      id: number
      author_id: number | null
      email: string
      name: string
      language: string
      title: string
    },
    kind: string,
    params: Record<string, string | number> = {},
    extra?: string,
  ) {
    const all = { id: ticket.id, title: ticket.title, ...params }
    const account = ticket.author_id
      ? await trx
          .selectFrom('app_user')
          .select(['id', 'email', 'first_name', 'language'])
          .where('id', '=', ticket.author_id)
          .executeTakeFirst()
      : undefined
    // The receipt of a ticket its author has just filed is a mail only: the bell is for what others did.
    if (account && kind !== 'created')
      await enqueue(trx, COMPLAINT_NOTIFY_TOPIC, {
        userId: account.id,
        complaintId: ticket.id,
        kind,
        params: all,
      } satisfies ComplaintNotifyPayload)
    const locale = asLocale(account?.language ?? ticket.language)
    await enqueue(
      trx,
      EMAIL_TOPIC,
      ticketMail(
        locale,
        account?.email ?? ticket.email,
        account?.first_name ?? ticket.name,
        kind,
        all,
        account ? `${publicUrl}/ticketSupport/${ticket.id}` : null,
        extra,
      ),
    )
  }

  async function create(caller: Caller, input: NewComplaint, upload?: Files) {
    const subject = await subjectFor(caller.userId, input.subject)
    const id = await db.transaction().execute(async (trx) => {
      const me = await trx
        .selectFrom('app_user')
        .select(['email', 'first_name', 'last_name', 'status', 'language'])
        .where('id', '=', caller.userId)
        .executeTakeFirstOrThrow()
      const now = new Date().toISOString()
      const row = await trx
        .insertInto('complaint')
        .values({
          author_id: caller.userId,
          email: me.email,
          name: personName(me),
          language: asLocale(me.language),
          source: 'app',
          contact_message_id: null,
          subject_kind: subject.kind,
          subject_id: subject.id,
          subject_label: subject.stored,
          other_party_id: subject.otherPartyId,
          title: input.title,
          status: 'open',
          assignee_id: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      await addMessage(trx, row.id, caller.userId, false, input.description, upload)
      await tellAuthor(trx, row, 'created')
      // A complaint about a funded installment holds its money until an admin decides (decision 230).
      const held =
        subject.kind === 'installment' && money
          ? await money.holdForComplaint(trx, subject.id!, row.id, input.title)
          : false
      // The other party it shows itself to is told, in the bell, that it concerns them (decision 232).
      if (subject.otherPartyId && partyKinds.includes(subject.kind))
        await tell(
          trx,
          subject.otherPartyId,
          row.id,
          held ? 'disputes:notify.disputeOpened' : 'disputes:notify.partyNamed',
          { title: row.title },
        )
      return row.id
    })
    return detail(id, 'author', caller.userId)
  }

  /** Reads a multipart body (fields and up to 5 `files`), checks it like JSON, then runs `then`. */
  async function withForm<S extends z.ZodType, T>(
    request: Request,
    schema: S,
    then: (value: z.output<S>, upload: Files) => Promise<T>,
  ) {
    const upload = await files.receiveForm(request, {
      field: 'files',
      maxFiles: complaintLimits.attachments,
      rule: complaintAttachmentRule,
      fieldSizeBytes: complaintLimits.body * 4 + 1024,
    })
    try {
      const parsed = schema.safeParse(upload.fields)
      if (!parsed.success) throw validationError(parsed.error.issues, 'body')
      return await then(parsed.data, upload)
    } finally {
      await upload.discard()
    }
  }

  /** A bell notification of a ticket for one user (its texts in the disputes namespace when `kind` is one of this part's). */
  const tell = (
    trx: Trx,
    userId: number,
    complaintId: number,
    kind: string,
    params: Record<string, string | number>,
  ) =>
    enqueue(trx, COMPLAINT_NOTIFY_TOPIC, {
      userId,
      complaintId,
      kind,
      params: { id: complaintId, ...params },
    } satisfies ComplaintNotifyPayload)

  /** The author's or the other party's reply. The author's moves the ticket (decision 211); the other party's tells the author and support (decision 232). */
  async function userReply(caller: Caller, id: number, body: string, upload?: Files) {
    const view = await db.transaction().execute(async (trx) => {
      const ticket = await lock(trx, id)
      const view = await viewerOf(trx, caller.userId, id)
      const state = ticket!.status as ComplaintState
      if (state === 'closed') throw conflict('The ticket is closed; file a new complaint', state)
      await addMessage(trx, id, caller.userId, false, body, upload)
      const step = view === 'author' ? authorReplyTransition(state) : undefined
      if (step) await setState(trx, id, state, step.to)
      if (view === 'party') await tellAuthor(trx, ticket!, 'disputes:notify.partyReplied', {}, body)
      // The agent who took the ticket hears of the reply; unassigned, every SuperAdmin does.
      const agents = ticket!.assignee_id
        ? [ticket!.assignee_id]
        : view === 'party'
          ? await superAdmins(trx)
          : []
      for (const agent of agents) await tell(trx, agent, id, 'userReplied', { title: ticket!.title })
      return view
    })
    return detail(id, view, caller.userId)
  }

  const superAdmins = async (executor: Executor) =>
    (
      await executor.selectFrom('user_role').select('user_id').where('role', '=', Role.SuperAdmin).execute()
    ).map((r) => r.user_id)

  async function supportReply(caller: Caller, id: number, body: string, upload?: Files) {
    const adminId = requireAdmin(caller)
    await db.transaction().execute(async (trx) => {
      const ticket = await lock(trx, id)
      if (!ticket) throw notFound('Complaint')
      if (ticket.status === 'closed') throw conflict('The ticket is closed', ticket.status)
      await addMessage(trx, id, adminId, true, body, upload)
      await recordAdminAction(trx, {
        actorId: adminId,
        action: 'reply',
        objectType: 'complaint',
        objectId: id,
      })
      await tellAuthor(trx, ticket, 'reply', {}, body)
    })
    return detail(id, 'support')
  }

  return {
    requireAdmin,
    async subjects(caller: Caller) {
      return { data: (await subjectsOf(caller.userId)).map(({ kind, id, label }) => ({ kind, id, label })) }
    },
    async mine(caller: Caller, page: number) {
      const size = complaintLimits.pageSize
      const mine = db.selectFrom('complaint as c').where((eb) => readableBy(eb, caller.userId))
      const rows = await mine
        .select('c.id')
        .orderBy('c.id', 'desc')
        .offset((page - 1) * size)
        .limit(size)
        .execute()
      const total = await mine
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
      return { data: await presentSummaries(rows), page, pageSize: size, total: Number(total.n) }
    },
    create: (caller: Caller, input: NewComplaint) => create(caller, input),
    createForm: (caller: Caller, request: Request) =>
      withForm(request, newComplaintSchema, async (value, upload) => create(caller, value, upload)),
    async get(caller: Caller, id: number) {
      return detail(id, await viewerOf(db, caller.userId, id), caller.userId)
    },
    reply: (caller: Caller, id: number, body: string) => userReply(caller, id, body),
    async replyForm(caller: Caller, id: number, request: Request) {
      // Strangers are refused before a byte of their upload is read.
      await viewerOf(db, caller.userId, id)
      return withForm(request, replySchema, (value, upload) => userReply(caller, id, value.body, upload))
    },

    async queue(caller: Caller, query: z.output<typeof queueQuery>) {
      requireAdmin(caller)
      const size = complaintLimits.pageSize
      let q = db.selectFrom('complaint')
      if (query.state) q = q.where('status', '=', query.state)
      if (query.kind) q = q.where('subject_kind', '=', query.kind)
      // Tickets waiting on support first, longest waiting first; resolved and closed ones after them.
      const rows = await q
        .select('id')
        .orderBy(sql`CASE WHEN status IN ('resolved', 'closed') THEN 1 ELSE 0 END`)
        .orderBy('updated_at', 'asc')
        .orderBy('id', 'asc')
        .offset((query.page - 1) * size)
        .limit(size)
        .execute()
      const total = await q
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
      return { data: await presentSummaries(rows), page: query.page, pageSize: size, total: Number(total.n) }
    },
    async adminGet(caller: Caller, id: number) {
      requireAdmin(caller)
      const row = await db.selectFrom('complaint').select('id').where('id', '=', id).executeTakeFirst()
      if (!row) throw notFound('Complaint')
      return detail(id, 'support')
    },
    adminReply: (caller: Caller, id: number, body: string) => supportReply(caller, id, body),
    adminReplyForm(caller: Caller, id: number, request: Request) {
      requireAdmin(caller)
      return withForm(request, replySchema, (value, upload) => supportReply(caller, id, value.body, upload))
    },
    async assign(caller: Caller, id: number) {
      const adminId = requireAdmin(caller)
      await db.transaction().execute(async (trx) => {
        const ticket = await lock(trx, id)
        if (!ticket) throw notFound('Complaint')
        if (ticket.assignee_id === adminId) return
        await trx
          .updateTable('complaint')
          .set({ assignee_id: adminId, updated_at: new Date().toISOString() })
          .where('id', '=', id)
          .execute()
        await recordAdminAction(trx, {
          actorId: adminId,
          action: 'assign',
          objectType: 'complaint',
          objectId: id,
        })
      })
      return detail(id, 'support')
    },
    async changeState(caller: Caller, id: number, to: ComplaintState, reason: string) {
      const adminId = requireAdmin(caller)
      await db.transaction().execute(async (trx) => {
        const ticket = await lock(trx, id)
        if (!ticket) throw notFound('Complaint')
        const from = ticket.status as ComplaintState
        const step = supportTransition(from, to)
        if (!step)
          throw conflict(
            `The ticket is ${from.replaceAll('_', ' ')}; it cannot become ${to.replaceAll('_', ' ')}`,
            from,
          )
        await setState(trx, id, from, to)
        await recordAdminAction(trx, {
          actorId: adminId,
          action: step.action as AdminActionName,
          objectType: 'complaint',
          objectId: id,
          fromState: from,
          toState: to,
          reason,
        })
        await tellAuthor(trx, ticket, `state.${to}`, { reason })
      })
      return detail(id, 'support')
    },
    /**
     * The admin decides the dispute of a complaint (decision 231): the money moves, the ticket is
     * resolved with the reason, and the audit row is written, all in the money's transaction.
     */
    async decide(
      caller: Caller,
      id: number,
      input: { outcome: 'release' | 'refund' | 'split'; refundMinor?: number; reason: string },
    ) {
      const adminId = requireAdmin(caller)
      const ticket = await db
        .selectFrom('complaint')
        .select(['id', 'subject_kind'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!ticket) throw notFound('Complaint')
      if (ticket.subject_kind !== 'installment' || !money) throw notFound('Dispute')
      await money.decideComplaint(
        id,
        input.outcome,
        input.refundMinor,
        adminId,
        input.reason,
        async (trx, decided) => {
          const row = (await lock(trx, id))!
          const from = row.status as ComplaintState
          const to: ComplaintState = supportTransition(from, 'resolved') ? 'resolved' : from
          if (to !== from) await setState(trx, id, from, to)
          const what = `${input.outcome}: ${decided.refundMinor} ${decided.currency} refunded, ${decided.releaseMinor} ${decided.currency} released`
          await recordAdminAction(trx, {
            actorId: adminId,
            action: 'decide_dispute',
            objectType: 'complaint',
            objectId: id,
            fromState: from,
            toState: to,
            reason: `${what}. ${input.reason}`,
          })
          await addMessage(trx, id, adminId, true, input.reason)
          await tellAuthor(trx, row, `state.${to}`, { reason: input.reason })
        },
      )
      return detail(id, 'support')
    },
    /** An admin handling a complaint about a chat room reads that room, read-only; each reading is audited (decision 233). */
    async room(caller: Caller, id: number) {
      const adminId = requireAdmin(caller)
      const ticket = await db
        .selectFrom('complaint')
        .select(['subject_kind', 'subject_id'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!ticket) throw notFound('Complaint')
      if (ticket.subject_kind !== 'chat_room' || !ticket.subject_id) throw notFound('Chat room')
      const roomId = ticket.subject_id
      return db.transaction().execute(async (trx) => {
        await recordAdminAction(trx, {
          actorId: adminId,
          action: 'read_room',
          objectType: 'chat_room',
          objectId: roomId,
          reason: `complaint #${id}`,
        })
        return { roomId, messages: await readRoom(trx, roomId) }
      })
    },
    async audit(caller: Caller, query: z.output<typeof auditQuery>) {
      requireAdmin(caller)
      return {
        data: await listAdminActions(db, query),
        page: query.page,
        pageSize: AUDIT_PAGE,
        total: await countAdminActions(db, query),
        facets: await auditFacets(db),
      }
    },

    /**
     * A message sent through /contact-us becomes a ticket about the platform (decision 215), in the
     * transaction that stores it: linked to the sender's account when they were signed in, else
     * reached by the address they gave.
     */
    async fromContact(
      trx: Trx,
      contact: {
        id: number
        name: string
        email: string
        subject: string
        message: string
        language: Locale
        userId: number | null
      },
    ) {
      const now = new Date().toISOString()
      const row = await trx
        .insertInto('complaint')
        .values({
          author_id: contact.userId,
          email: contact.email,
          name: contact.name,
          language: contact.language,
          source: 'contact',
          contact_message_id: contact.id,
          subject_kind: 'platform',
          subject_id: null,
          subject_label: 'Workneer',
          other_party_id: null,
          title: contact.subject.slice(0, complaintLimits.title),
          status: 'open',
          assignee_id: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await trx
        .insertInto('complaint_message')
        .values({
          complaint_id: row.id,
          author_id: contact.userId,
          from_support: 0,
          body: contact.message,
          created_at: now,
        })
        .execute()
      return row.id
    },
  }
}

/** The mail of a ticket's change, in the recipient's language: the notification's title and text, support's reply, and the ticket's link. */
function ticketMail(
  locale: Locale,
  to: string,
  name: string,
  kind: string,
  params: Record<string, string | number>,
  link: string | null,
  extra?: string,
): EmailMessage {
  const { title, content } = renderNotification(locale, notifyKey(kind), params)
  const greeting = renderNotification(locale, 'complaints:mail.greeting', { name }).title
  const footer = renderNotification(locale, 'complaints:mail.footer', {}).title
  const open = link ? renderNotification(locale, 'complaints:mail.open', {}).title : null
  const paragraphs = [content, ...(extra ? [extra] : [])]
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(link ? [`${open}: ${link}`, ''] : []),
    footer,
  ].join('\n')
  const esc = (s: string) =>
    s.replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
    )
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;color:#1b2430;max-width:560px;margin:0 auto;padding:24px"><p>${esc(greeting)}</p>${paragraphs.map((p) => `<p style="white-space:pre-line">${esc(p)}</p>`).join('')}${link ? `<p><a href="${esc(link)}">${esc(open ?? link)}</a></p>` : ''}<hr style="border:none;border-top:1px solid #dde3ea"><p style="font-size:13px;color:#555">${esc(footer)}</p></body></html>`
  return { to, subject: title, text, html, language: locale, kind: `complaint-${kind.replace(/^.*\./, '')}` }
}

export type ComplaintsService = ReturnType<typeof createComplaintsService>
