import type { Insertable, Kysely, Transaction } from 'kysely'
import type { z } from 'zod'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Database } from '#server/db/schema.ts'
import { ApiError, notFound, validationError } from '#server/api/errors.ts'
import type { FileService } from '../files/service.ts'
import type { Refunds } from '../payments/refunds.ts'
import { personName } from '../identity/display-name.ts'
import { asLocale } from '../notifications/texts.ts'
import { FILE_PURPOSE } from './access.ts'
import type { ComplaintState } from './machine.ts'
import { complaintAttachmentRule, complaintLimits } from './rules.ts'

// The ticket's rows: locking it for a change, adding a message with its files, and moving its
// state; and the multipart form a message with attachments arrives in.

/** What the complaints module needs of the payments module for disputes (decisions 230–231). */
export type DisputeMoney = Pick<Refunds, 'holdForComplaint' | 'disputeOf' | 'decideComplaint' | 'holdable'>

/** What the complaints module is given (server/api/services.ts). */
export interface ComplaintsDeps {
  db: Kysely<Database>
  dialect: Dialect
  files: FileService
  publicUrl: string
  money?: DisputeMoney
}

export type Trx = Transaction<Database>
export type Files = Awaited<ReturnType<FileService['receiveForm']>>

export function conflict(detail: string, state: string) {
  return new ApiError(409, 'Conflict', detail, { state: [state] })
}

/** What a ticket is about (404 when there is no such ticket): read by support's dispute and room actions. */
export async function ticketSubject(db: Kysely<Database>, id: number) {
  const ticket = await db
    .selectFrom('complaint')
    .select(['subject_kind', 'subject_id'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!ticket) throw notFound('Complaint')
  return ticket
}

/** The contract a ticket's subject belongs to, when it is about one (a project's latest, a room's parties'). */
export async function contractOfTicket(
  db: Kysely<Database>,
  ticket: { subject_kind: string; subject_id: number | null },
) {
  const id = ticket.subject_id
  if (id === null) return null
  if (ticket.subject_kind === 'contract') return id
  const q = db.selectFrom('contract as c').select('c.id').orderBy('c.id', 'desc')
  const found =
    ticket.subject_kind === 'installment'
      ? await q
          .innerJoin('installment as i', 'i.contract_id', 'c.id')
          .where('i.id', '=', id)
          .executeTakeFirst()
      : ticket.subject_kind === 'project'
        ? await q.where('c.project_id', '=', id).executeTakeFirst()
        : ticket.subject_kind === 'chat_room'
          ? await q
              .innerJoin('chat_room as r', (j) =>
                j.onRef('r.project_id', '=', 'c.project_id').onRef('r.freelancer_id', '=', 'c.freelancer_id'),
              )
              .where('r.id', '=', id)
              .executeTakeFirst()
          : undefined
  return found?.id ?? null
}

/** Locks the ticket row for a change (PostgreSQL; SQLite's write transaction already holds the lock). */
export async function lock(trx: Trx, dialect: Dialect, id: number) {
  let q = trx.selectFrom('complaint').selectAll().where('id', '=', id)
  if (dialect === 'postgres') q = q.forUpdate()
  return q.executeTakeFirst()
}

/** A new ticket's own fields: it opens unassigned, now. */
type NewTicket = Omit<
  Insertable<Database['complaint']>,
  'status' | 'assignee_id' | 'created_at' | 'updated_at'
>

/** Opens a ticket (filed in the app, through the contact form, or by a dispute) and answers its row. */
export async function openTicket(trx: Trx, ticket: NewTicket) {
  const now = new Date().toISOString()
  return trx
    .insertInto('complaint')
    .values({ ...ticket, status: 'open', assignee_id: null, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A signed-in user as a ticket's author: their address, name and language, filed in the app. */
export async function appAuthor(trx: Trx, userId: number) {
  const user = await trx
    .selectFrom('app_user')
    .select(['email', 'first_name', 'last_name', 'status', 'language'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  return {
    author_id: userId,
    email: user.email,
    name: personName(user),
    language: asLocale(user.language),
    source: 'app' as const,
    contact_message_id: null,
  }
}

/** A message on the ticket, with the upload's files stored and attached; the ticket counts as updated. */
export async function addMessage(
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
export async function setState(trx: Trx, id: number, from: string, to: ComplaintState) {
  const done = await trx
    .updateTable('complaint')
    .set({ status: to, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst()
  if (Number(done.numUpdatedRows) !== 1)
    throw conflict('The ticket changed meanwhile; reload and try again', from)
}

/** Reads a multipart body (fields and up to 5 `files`), checks it like JSON, then runs `then`. */
export async function withForm<S extends z.ZodType, T>(
  files: FileService,
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
