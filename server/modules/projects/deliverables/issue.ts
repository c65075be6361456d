import type { Caller } from '#server/api/handler.ts'
import { ApiError, validationError } from '#server/api/errors.ts'
import type { FileService } from '../../files/service.ts'
import { documentExtensions, extensionOf, imageExtensions, problems } from '../../files/rules.ts'
import { limits } from '../rules.ts'
import { conflict, lockRow, type Trx } from '../transition.ts'
import { nowIso, type ContractRow } from '../shared.ts'
import { deliverableOf, FILE_PURPOSE, requireRole, type Party } from './access.ts'
import type { WriteDeps } from './add.ts'
import { recordStep } from './events.ts'
import { deliverableLimits, nextRevisions, transmittalLabel, type RevisionScheme } from './rules.ts'
import { issueInput, type IssueInput } from './schemas.ts'

// The freelancer issues a deliverable at its next revision: one transmittal, the issue row and its
// files, in one transaction. Issuing is how the work of its installment is submitted (decision
// 318): a funded installment, or one the client asked to change, moves to submitted.

type Upload = Awaited<ReturnType<FileService['receiveForm']>>
export type IssueDeps = WriteDeps & { files: FileService }

/** The states in which the installment's money is held and its work may be issued. */
const issuable: readonly string[] = ['funded', 'submitted', 'changes_requested']
const submits: readonly string[] = ['funded', 'changes_requested']

/** Drawings, models and documents, as an installment's files take them. */
export function issueFileRule(fileName: string) {
  const ext = extensionOf(fileName)
  if ((imageExtensions as readonly string[]).includes(ext))
    return { kind: 'image' as const, limitKb: limits.imageKb }
  if ((documentExtensions as readonly string[]).includes(ext))
    return { kind: 'document' as const, limitKb: limits.documentKb }
  return problems.invalidDocument()
}

/** The revision refused, naming the field and the revisions that would do. */
function notNext(allowed: string[]) {
  const message = `The next revision is ${allowed.join(' or ')}`
  return new ApiError(
    400,
    'Invalid Info',
    `revision: ${message}`,
    { revision: [message] },
    'revision_not_next',
  )
}

/** The contract and installment, locked, once they take an issue. */
async function lockIssuable(deps: WriteDeps, trx: Trx, party: Party & { installmentId: number }) {
  const contract = (await lockRow(trx, deps.dialect, 'contract', party.contract.id))!
  const i = (await lockRow(trx, deps.dialect, 'installment', party.installmentId))!
  if (contract.status !== 'active')
    throw conflict(`The contract is ${contract.status}; nothing more is issued`, contract.status)
  if (!issuable.includes(i.status))
    throw conflict(
      i.status === 'pending'
        ? 'The installment is not funded yet; its deliverables are issued once it is'
        : `The installment is ${i.status}; its deliverables are no longer issued`,
      i.status,
    )
  return { contract, i }
}

/** The revision checked against the scheme, then the transmittal, the issue and its files written. */
async function insertIssue(
  trx: Trx,
  contract: ContractRow,
  deliverableId: number,
  input: IssueInput,
  upload?: Upload,
) {
  const register = await trx
    .selectFrom('deliverable_register')
    .select('scheme')
    .where('contract_id', '=', contract.id)
    .executeTakeFirstOrThrow()
  const last = await trx
    .selectFrom('deliverable_issue')
    .select(['revision', 'sequence'])
    .where('deliverable_id', '=', deliverableId)
    .orderBy('sequence', 'desc')
    .limit(1)
    .executeTakeFirst()
  const allowed = nextRevisions(register.scheme as RevisionScheme, last?.revision ?? null)
  if (!allowed.includes(input.revision)) throw notNext(allowed)
  const now = nowIso()
  const count = await trx
    .selectFrom('transmittal')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('contract_id', '=', contract.id)
    .executeTakeFirst()
  const number = Number(count?.n ?? 0) + 1
  const transmittal = await trx
    .insertInto('transmittal')
    .values({
      contract_id: contract.id,
      number,
      sender_id: contract.freelancer_id,
      recipient_id: contract.client_id,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const issue = await trx
    .insertInto('deliverable_issue')
    .values({
      deliverable_id: deliverableId,
      contract_id: contract.id,
      transmittal_id: transmittal.id,
      sequence: (last?.sequence ?? 0) + 1,
      revision: input.revision,
      status: input.status,
      note: input.note,
      issued_by: contract.freelancer_id,
      issued_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  if (upload?.files.length) {
    const stored = await upload.store(trx, { purpose: FILE_PURPOSE, ownerId: contract.freelancer_id })
    await trx
      .insertInto('deliverable_issue_file')
      .values(stored.map((f) => ({ issue_id: issue.id, file_id: f.id })))
      .execute()
  }
  return transmittalLabel(number)
}

async function writeIssue(
  deps: IssueDeps,
  caller: Caller,
  deliverableId: number,
  input: IssueInput,
  upload?: Upload,
) {
  const { db } = deps
  const party = await deliverableOf(db, caller, deliverableId)
  requireRole(party, 'freelancer')
  await db.transaction().execute(async (trx) => {
    const { contract, i } = await lockIssuable(deps, trx, party)
    const transmittal = await insertIssue(trx, contract, deliverableId, input, upload)
    const d = await trx
      .selectFrom('deliverable')
      .select('number')
      .where('id', '=', deliverableId)
      .executeTakeFirstOrThrow()
    const label = `${d.number} ${input.revision}`
    await recordStep(trx, {
      contract,
      i,
      actorId: caller.userId,
      deliverableId,
      action: 'issue',
      label,
      note: label,
      move: submits.includes(i.status)
        ? { action: 'submit', set: { submission_note: `${label}: ${input.note}` } }
        : undefined,
      kind: 'deliverableIssued',
      params: { transmittal },
    })
  })
}

/** Issues from JSON (no files). */
export const issueDeliverable = (deps: IssueDeps, caller: Caller, deliverableId: number, input: IssueInput) =>
  writeIssue(deps, caller, deliverableId, input)

/** Issues from a multipart form: the issue's fields and up to ten `files`; strangers are refused before a byte is read. */
export async function issueDeliverableForm(
  deps: IssueDeps,
  caller: Caller,
  deliverableId: number,
  request: Request,
) {
  requireRole(await deliverableOf(deps.db, caller, deliverableId), 'freelancer')
  const upload = await deps.files.receiveForm(request, {
    field: 'files',
    maxFiles: deliverableLimits.files,
    rule: issueFileRule,
    fieldSizeBytes: deliverableLimits.note * 4 + 1024,
  })
  try {
    const parsed = issueInput.safeParse(upload.fields)
    if (!parsed.success) throw validationError(parsed.error.issues, 'body')
    return await writeIssue(deps, caller, deliverableId, parsed.data, upload)
  } finally {
    await upload.discard()
  }
}
