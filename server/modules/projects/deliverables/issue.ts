import type { Caller } from '#server/api/handler.ts'
import { ApiError, validationError } from '#server/api/errors.ts'
import type { FileService } from '../../files/service.ts'
import { documentExtensions, extensionOf, imageExtensions, problems } from '../../files/rules.ts'
import { limits } from '../rules.ts'
import { conflict, lockRow, type Trx } from '../transition.ts'
import { badRequest, nowIso, type ContractRow } from '../shared.ts'
import { deliverableOf, FILE_PURPOSE, registerOf, requireRole, type Party } from './access.ts'
import type { WriteDeps } from './add.ts'
import { recordIssued } from './events.ts'
import { deliverableLimits, nextRevisions, transmittalLabel, type RevisionScheme } from './rules.ts'
import { issueInput, type IssueInput, type TransmittalInput } from './schemas.ts'

// The freelancer issues deliverables of one installment, each at its next revision, under one
// transmittal: the transmittal, the issue rows and their files, in one transaction. Issuing one
// deliverable is a transmittal of one. Issuing is how the work of its installment is submitted
// (decision 318): a funded installment, or one the client asked to change, moves to submitted.

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

/** The revision refused, naming the field, the deliverable and the revisions that would do. */
function notNext(field: string, allowed: string[], number?: string) {
  const message = `${number ? `${number}: ` : ''}The next revision is ${allowed.join(' or ')}`
  return new ApiError(
    400,
    'Invalid Info',
    `${field}: ${message}`,
    { [field]: [message] },
    'revision_not_next',
  )
}

/** The contract and installment, locked, once they take an issue. */
async function lockIssuable(deps: WriteDeps, trx: Trx, contractId: number, installmentId: number) {
  const contract = (await lockRow(trx, deps.dialect, 'contract', contractId))!
  const i = await lockRow(trx, deps.dialect, 'installment', installmentId)
  if (!i || i.contract_id !== contract.id) throw badRequest('installmentId', 'deliverables:errors.choose')
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

/** One deliverable to issue: which, at what revision, and the field an error about it names. */
type Item = { deliverableId: number; revision: string; field: string }
type Shared = { status: IssueInput['status']; note: string }

/** The items' deliverables, each of this installment and named once; answers them in the items' order. */
async function deliverablesOf(trx: Trx, contractId: number, installmentId: number, items: Item[]) {
  const rows = await trx
    .selectFrom('deliverable')
    .select(['id', 'number', 'installment_id'])
    .where('contract_id', '=', contractId)
    .where('id', 'in', [0, ...items.map((i) => i.deliverableId)])
    .execute()
  const byId = new Map(rows.map((r) => [r.id, r]))
  const seen = new Set<number>()
  return items.map((item) => {
    const d = byId.get(item.deliverableId)
    const field = item.field.replace(/revision$/, 'deliverableId')
    if (!d || d.installment_id !== installmentId)
      throw badRequest(field, 'deliverables:errors.notOfInstallment')
    if (seen.has(d.id)) throw badRequest(field, 'deliverables:errors.twice')
    seen.add(d.id)
    return { ...item, number: d.number }
  })
}

/** The next transmittal of the contract (TR-0001, TR-0002…), written once for all the items. */
async function insertTransmittal(trx: Trx, contract: ContractRow, now: string) {
  const last = await trx
    .selectFrom('transmittal')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('contract_id', '=', contract.id)
    .executeTakeFirst()
  const number = Number(last?.n ?? 0) + 1
  const row = await trx
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
  return { id: row.id, label: transmittalLabel(number) }
}

/** One issue row, its revision checked against the scheme and the deliverable's last issue. */
async function insertIssue(
  trx: Trx,
  at: { contract: ContractRow; scheme: RevisionScheme; transmittalId: number; now: string },
  item: Item & { number: string },
  shared: Shared,
) {
  const last = await trx
    .selectFrom('deliverable_issue')
    .select(['revision', 'sequence'])
    .where('deliverable_id', '=', item.deliverableId)
    .orderBy('sequence', 'desc')
    .limit(1)
    .executeTakeFirst()
  const allowed = nextRevisions(at.scheme, last?.revision ?? null)
  if (!allowed.includes(item.revision))
    throw notNext(item.field, allowed, item.field === 'revision' ? undefined : item.number)
  const issue = await trx
    .insertInto('deliverable_issue')
    .values({
      deliverable_id: item.deliverableId,
      contract_id: at.contract.id,
      transmittal_id: at.transmittalId,
      sequence: (last?.sequence ?? 0) + 1,
      revision: item.revision,
      status: shared.status,
      note: shared.note,
      issued_by: at.contract.freelancer_id,
      issued_at: at.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return issue.id
}

/** The transmittal and its issues in one transaction, then the installment's move and the notices. */
async function writeTransmittal(
  deps: IssueDeps,
  caller: Caller,
  party: Party,
  batch: { installmentId: number; items: Item[]; shared: Shared },
  upload?: Upload,
) {
  return deps.db.transaction().execute(async (trx) => {
    const { contract, i } = await lockIssuable(deps, trx, party.contract.id, batch.installmentId)
    const items = await deliverablesOf(trx, contract.id, i.id, batch.items)
    const register = await trx
      .selectFrom('deliverable_register')
      .select('scheme')
      .where('contract_id', '=', contract.id)
      .executeTakeFirstOrThrow()
    const now = nowIso()
    const transmittal = await insertTransmittal(trx, contract, now)
    const at = { contract, scheme: register.scheme as RevisionScheme, transmittalId: transmittal.id, now }
    for (const item of items) {
      const issueId = await insertIssue(trx, at, item, batch.shared)
      // Files come with a single issue's form; a transmittal of several carries none.
      if (upload?.files.length) {
        const stored = await upload.store(trx, { purpose: FILE_PURPOSE, ownerId: contract.freelancer_id })
        await trx
          .insertInto('deliverable_issue_file')
          .values(stored.map((f) => ({ issue_id: issueId, file_id: f.id })))
          .execute()
      }
    }
    const labels = items.map((x) => ({ deliverableId: x.deliverableId, label: `${x.number} ${x.revision}` }))
    await recordIssued(trx, deps.publicUrl, {
      contract,
      i,
      actorId: caller.userId,
      items: labels,
      transmittal,
      submitNote: submits.includes(i.status)
        ? `${labels.map((l) => l.label).join(', ')}: ${batch.shared.note}`
        : undefined,
    })
    return transmittal.id
  })
}

async function writeIssue(
  deps: IssueDeps,
  caller: Caller,
  deliverableId: number,
  input: IssueInput,
  upload?: Upload,
) {
  const party = await deliverableOf(deps.db, caller, deliverableId)
  requireRole(party, 'freelancer')
  await writeTransmittal(
    deps,
    caller,
    party,
    {
      installmentId: party.installmentId,
      items: [{ deliverableId, revision: input.revision, field: 'revision' }],
      shared: { status: input.status, note: input.note },
    },
    upload,
  )
}

/** Issues from JSON (no files). */
export const issueDeliverable = (deps: IssueDeps, caller: Caller, deliverableId: number, input: IssueInput) =>
  writeIssue(deps, caller, deliverableId, input)

/** Issues several deliverables of an installment under one transmittal; answers the transmittal's id. */
export async function issueTransmittal(
  deps: IssueDeps,
  caller: Caller,
  projectId: number,
  input: TransmittalInput,
) {
  const party = await registerOf(deps.db, caller, projectId)
  requireRole(party, 'freelancer')
  return writeTransmittal(deps, caller, party, {
    installmentId: input.installmentId,
    items: input.items.map((x, n) => ({ ...x, field: `items.${n}.revision` })),
    shared: { status: input.status, note: input.note },
  })
}

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
