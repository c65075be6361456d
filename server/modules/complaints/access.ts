import type { ExpressionBuilder, Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { forbidden, notFound } from '#server/api/errors.ts'
import type { FileService } from '../files/service.ts'
import { Role } from '../identity/permissions.ts'
import { partyKinds, type SubjectKind } from './rules.ts'

// Who may read a ticket and its files: its author, the other party it shows itself to
// (decision 232), and support; anyone else is told it does not exist.

type Executor = Kysely<Database> | Transaction<Database>
export type Viewer = 'author' | 'party' | 'support'

/** The files purpose of a ticket's attachments. */
export const FILE_PURPOSE = 'complaint'

const isAdmin = (caller: Caller) => caller.roles.includes(Role.SuperAdmin)

/** Support's side is for SuperAdmins only (403 for every other role); answers the admin's id. */
export function requireAdmin(caller: Caller) {
  if (!isAdmin(caller)) throw forbidden()
  return caller.userId
}

/** The tickets a user may read: their own, and those naming them as the other party of a kind that shows it (decision 232). */
export const readableBy = (eb: ExpressionBuilder<{ c: Database['complaint'] }, 'c'>, userId: number) =>
  eb.or([
    eb('c.author_id', '=', userId),
    eb.and([eb('c.other_party_id', '=', userId), eb('c.subject_kind', 'in', partyKinds)]),
  ])

/** How `userId` reads ticket `id`: as its author, as its other party, or not at all (404, like a ticket that does not exist). */
export async function viewerOf(executor: Executor, userId: number, id: number): Promise<'author' | 'party'> {
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

/** Tells the files module who may read a ticket's attachments, and which stored files the tickets still use. */
export function registerFilePolicies(db: Kysely<Database>, files: FileService) {
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
}
