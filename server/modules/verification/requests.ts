import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError, forbidden, validationError } from '#server/api/errors.ts'
import type { FileService } from '../files/service.ts'
import type { NoticeDeps } from './notices.ts'
import { extensionOf, problems } from '../files/rules.ts'
import { Role } from '../identity/permissions.ts'
import { DOCUMENT_MAX_KB, documentExtensions, type VerificationState } from './choices.ts'
import { verificationRequestInput, type VerificationStatus } from './schemas.ts'
import { seal } from './sealed.ts'

// A person's side of verification (decision 332): asking, with one document, and reading where
// their request stands. Only freelancers and companies ask; one request is open at a time, and a
// verified person does not ask again.

export interface VerificationDeps extends NoticeDeps {
  db: Kysely<Database>
  files: Pick<FileService, 'receiveForm'>
}

const FIELD = 'file'
const mayAsk = (caller: Caller) =>
  caller.roles.includes(Role.Freelancer) || caller.roles.includes(Role.Company)

const openConflict = () =>
  new ApiError(
    409,
    'Conflict',
    'A verification request is already open',
    { kind: ['errors.open'] },
    'verification_open',
  )
const verifiedConflict = () =>
  new ApiError(
    409,
    'Conflict',
    'The account is verified already',
    { kind: ['errors.verified'] },
    'already_verified',
  )

/** The person's newest request, as their status. */
export async function statusOf(db: Kysely<Database>, caller: Caller): Promise<VerificationStatus> {
  const last = await db
    .selectFrom('identity_verification')
    .select(['kind', 'state', 'reason', 'created_at', 'decided_at'])
    .where('user_id', '=', caller.userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  const state = (last?.state ?? 'none') as VerificationState
  return {
    state,
    canAsk: mayAsk(caller) && (state === 'none' || state === 'rejected'),
    kind: (last?.kind as VerificationStatus['kind']) ?? null,
    reason: state === 'rejected' ? (last?.reason ?? null) : null,
    requestedAt: last ? new Date(last.created_at).toISOString() : null,
    decidedAt: last?.decided_at ? new Date(last.decided_at).toISOString() : null,
  }
}

/** Which document a file's name says it is: a PDF, or a picture (whose metadata is stripped). */
function documentRule(fileName: string) {
  const ext = extensionOf(fileName)
  if (!(documentExtensions as readonly string[]).includes(ext)) return problems.invalidDocument()
  return { kind: ext === 'pdf' ? ('document' as const) : ('image' as const), limitKb: DOCUMENT_MAX_KB }
}

/** Refuses (409) when the person has a request open or is verified already. */
async function checkNoneOpen(db: Kysely<Database>, userId: number) {
  const open = await db
    .selectFrom('identity_verification')
    .select('state')
    .where('user_id', '=', userId)
    .where('state', 'in', ['pending', 'verified'])
    .executeTakeFirst()
  if (open?.state === 'pending') throw openConflict()
  if (open) throw verifiedConflict()
}

const missing = () =>
  new ApiError(
    400,
    'Invalid Info',
    `${FIELD}: Choose a file to upload`,
    { [FIELD]: ['Choose a file to upload'] },
    'file_missing',
  )

/** Asks to be verified: the multipart form's `kind` and its one document, stored encrypted. */
export async function ask(deps: VerificationDeps, caller: Caller, request: Request | null) {
  if (!mayAsk(caller)) throw forbidden()
  if (!request) throw missing()
  await checkNoneOpen(deps.db, caller.userId)
  const form = await deps.files.receiveForm(request, { field: FIELD, maxFiles: 1, rule: documentRule })
  try {
    const parsed = verificationRequestInput.safeParse(form.fields)
    if (!parsed.success) throw validationError(parsed.error.issues, 'body')
    const [file] = form.files
    const [bytes] = await form.bytes()
    if (!file || !bytes) throw missing()
    await deps.db.transaction().execute(async (trx) => {
      await checkNoneOpen(trx, caller.userId)
      const { id } = await trx
        .insertInto('identity_verification')
        .values({
          user_id: caller.userId,
          kind: parsed.data.kind,
          state: 'pending',
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      const size = bytes.length
      const sealed = await seal(trx, id, bytes)
      bytes.fill(0)
      await trx
        .insertInto('verification_document')
        .values({
          verification_id: id,
          original_name: file.name.slice(0, 255),
          mime: file.mime,
          size,
          ...sealed,
        })
        .execute()
    })
  } catch (error) {
    // Two requests at once: the second meets the open request's unique index.
    if (!(error instanceof ApiError) && /unique|duplicate/i.test(String(error))) throw openConflict()
    throw error
  } finally {
    await form.discard()
  }
  return statusOf(deps.db, caller)
}
