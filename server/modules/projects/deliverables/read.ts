import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import type { FileService } from '../../files/service.ts'
import type { ProjectViews, Person } from '../views.ts'
import { nobody } from '../views.ts'
import { offsetOf, pageOf, type PageQuery } from '../shared.ts'
import { deliverableOf, registerOf, transmittalOf, type Party } from './access.ts'
import {
  nextRevisions,
  transmittalLabel,
  type IssueStatus,
  type Outcome,
  type RevisionScheme,
} from './rules.ts'

// Reading the register: a contract's deliverables with every issue, its files and its answer, in
// a fixed number of queries whatever its size (issue 40: 500 deliverables and 5,000 issues open in
// under 50 ms), each on an index that starts with the contract.

export type ReadDeps = {
  db: DB
  files: Pick<FileService, 'downloadUrl'>
  views: Pick<ProjectViews, 'people'>
}

/** The rows read: a contract's, narrowed to some deliverables (a page of the register, or one) or to a transmittal. */
type Scope = { contractId: number; deliverableIds?: number[]; transmittalId?: number }

/** The issues of the scope with their transmittal's number, oldest first. */
function issuesOf(db: DB, scope: Scope) {
  let q = db
    .selectFrom('deliverable_issue as i')
    .innerJoin('transmittal as t', 't.id', 'i.transmittal_id')
    .select([
      'i.id',
      'i.deliverable_id',
      'i.sequence',
      'i.revision',
      'i.status',
      'i.note',
      'i.issued_by',
      'i.issued_at',
      'i.transmittal_id',
      't.number as transmittal_number',
    ])
    .where('i.contract_id', '=', scope.contractId)
  if (scope.deliverableIds) q = q.where('i.deliverable_id', 'in', [0, ...scope.deliverableIds])
  if (scope.transmittalId) q = q.where('i.transmittal_id', '=', scope.transmittalId)
  return q.orderBy('i.deliverable_id').orderBy('i.sequence').execute()
}

function answersOf(db: DB, scope: Scope) {
  return db
    .selectFrom('deliverable_response as r')
    .innerJoin('deliverable_issue as i', 'i.id', 'r.issue_id')
    .select(['r.issue_id', 'r.outcome', 'r.comment', 'r.responded_by', 'r.responded_at'])
    .where('i.contract_id', '=', scope.contractId)
    .where('i.deliverable_id', 'in', [0, ...(scope.deliverableIds ?? [])])
    .execute()
}

function filesOf(db: DB, scope: Scope) {
  let q = db
    .selectFrom('deliverable_issue_file as f')
    .innerJoin('deliverable_issue as i', 'i.id', 'f.issue_id')
    .innerJoin('stored_file as s', 's.id', 'f.file_id')
    .select(['f.issue_id', 's.id', 's.original_name', 's.size', 's.mime'])
    .where('i.contract_id', '=', scope.contractId)
  if (scope.deliverableIds) q = q.where('i.deliverable_id', 'in', [0, ...scope.deliverableIds])
  if (scope.transmittalId) q = q.where('i.transmittal_id', '=', scope.transmittalId)
  return q.orderBy('s.id').execute()
}

type IssueRow = Awaited<ReturnType<typeof issuesOf>>[number]
type AnswerRow = Awaited<ReturnType<typeof answersOf>>[number]
type FileRow = Awaited<ReturnType<typeof filesOf>>[number]

/** Each issue as the API shows it, grouped by deliverable, newest first. */
async function issueViews(deps: ReadDeps, issues: IssueRow[], answers: AnswerRow[], files: FileRow[]) {
  const answerOf = new Map(answers.map((a) => [a.issue_id, a]))
  const filesBy = new Map<number, FileRow[]>()
  for (const f of files) filesBy.set(f.issue_id, [...(filesBy.get(f.issue_id) ?? []), f])
  const people = await deps.views.people([
    ...issues.map((i) => i.issued_by),
    ...answers.map((a) => a.responded_by),
  ])
  const who = (id: number): Person => people.get(id) ?? nobody(id)
  const byDeliverable = new Map<number, ReturnType<typeof view>[]>()
  const view = (i: IssueRow) => {
    const a = answerOf.get(i.id)
    return {
      id: i.id,
      revision: i.revision,
      status: i.status as IssueStatus,
      note: i.note,
      issuedBy: who(i.issued_by),
      issuedAt: i.issued_at,
      transmittal: { id: i.transmittal_id, number: transmittalLabel(i.transmittal_number) },
      files: (filesBy.get(i.id) ?? []).map((f) => ({
        id: f.id,
        name: f.original_name,
        url: deps.files.downloadUrl(f.id),
        size: f.size,
        mime: f.mime,
      })),
      answer: a
        ? {
            outcome: a.outcome as Outcome,
            comment: a.comment,
            respondedBy: who(a.responded_by),
            respondedAt: a.responded_at,
          }
        : null,
    }
  }
  for (const i of issues)
    byDeliverable.set(i.deliverable_id, [view(i), ...(byDeliverable.get(i.deliverable_id) ?? [])])
  return byDeliverable
}

/** A page of the register (or one deliverable of it), each with every issue. */
async function deliverableViews(
  deps: ReadDeps,
  party: Party,
  which: { deliverableId: number } | { offset: number; limit: number; installmentId?: number },
) {
  const { db } = deps
  const contractId = party.contract.id
  let q = db
    .selectFrom('deliverable as d')
    .innerJoin('installment as n', 'n.id', 'd.installment_id')
    .select([
      'd.id',
      'd.number',
      'd.title',
      'd.discipline',
      'd.position',
      'n.id as installment_id',
      'n.title as installment_title',
      'n.status as installment_status',
    ])
    .where('d.contract_id', '=', contractId)
  if ('deliverableId' in which) q = q.where('d.id', '=', which.deliverableId)
  else {
    if (which.installmentId) q = q.where('d.installment_id', '=', which.installmentId)
    q = q.offset(which.offset).limit(which.limit)
  }
  const [rows, register] = await Promise.all([
    q.orderBy('d.position').execute(),
    db
      .selectFrom('deliverable_register')
      .select('scheme')
      .where('contract_id', '=', contractId)
      .executeTakeFirst(),
  ])
  const scope = { contractId, deliverableIds: rows.map((r) => r.id) }
  const [issues, answers, files] = await Promise.all([
    issuesOf(db, scope),
    answersOf(db, scope),
    filesOf(db, scope),
  ])
  const scheme = (register?.scheme ?? null) as RevisionScheme | null
  const byDeliverable = await issueViews(deps, issues, answers, files)
  const active = party.contract.status === 'active'
  const data = rows.map((d) => {
    const list = byDeliverable.get(d.id) ?? []
    return {
      id: d.id,
      projectId: party.contract.project_id,
      role: party.role,
      number: d.number,
      title: d.title,
      discipline: d.discipline,
      position: d.position,
      installment: { id: d.installment_id, title: d.installment_title, status: d.installment_status },
      nextRevisions: active && scheme ? nextRevisions(scheme, list[0]?.revision ?? null) : [],
      issues: list,
    }
  })
  return { scheme, data }
}

/** How many deliverables the register (or one installment's part of it) holds. */
function countOf(db: DB, contractId: number, installmentId?: number) {
  let q = db
    .selectFrom('deliverable')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('contract_id', '=', contractId)
  if (installmentId) q = q.where('installment_id', '=', installmentId)
  return q.executeTakeFirstOrThrow()
}

async function register(
  deps: ReadDeps,
  caller: Caller,
  projectId: number,
  query: PageQuery & { installmentId?: number },
) {
  const { db } = deps
  const party = await registerOf(db, caller, projectId)
  const [{ scheme, data }, project, installments, total] = await Promise.all([
    deliverableViews(deps, party, {
      offset: offsetOf(query),
      limit: query.pageSize,
      installmentId: query.installmentId,
    }),
    db.selectFrom('project').select('title').where('id', '=', projectId).executeTakeFirstOrThrow(),
    db
      .selectFrom('installment')
      .select(['id', 'title', 'status'])
      .where('contract_id', '=', party.contract.id)
      .orderBy('position')
      .execute(),
    countOf(db, party.contract.id, query.installmentId),
  ])
  return {
    ...pageOf(data, query, total.n),
    contractId: party.contract.id,
    projectId,
    projectTitle: project.title,
    role: party.role,
    contractStatus: party.contract.status,
    scheme,
    installments,
  }
}

async function deliverable(deps: ReadDeps, caller: Caller, deliverableId: number) {
  const party = await deliverableOf(deps.db, caller, deliverableId)
  const { data } = await deliverableViews(deps, party, { deliverableId })
  return data[0]
}

async function transmittal(deps: ReadDeps, caller: Caller, transmittalId: number) {
  const { db } = deps
  const party = await transmittalOf(db, caller, transmittalId)
  const contractId = party.contract.id
  const scope = { contractId, transmittalId }
  const [t, project, issues, files] = await Promise.all([
    db.selectFrom('transmittal').selectAll().where('id', '=', transmittalId).executeTakeFirstOrThrow(),
    db
      .selectFrom('project')
      .select('title')
      .where('id', '=', party.contract.project_id)
      .executeTakeFirstOrThrow(),
    issuesOf(db, scope),
    filesOf(db, scope),
  ])
  const deliverables = await db
    .selectFrom('deliverable')
    .select(['id', 'number', 'title', 'discipline'])
    .where('contract_id', '=', contractId)
    .where('id', 'in', [0, ...issues.map((i) => i.deliverable_id)])
    .execute()
  const byId = new Map(deliverables.map((d) => [d.id, d]))
  const views = await issueViews(deps, issues, [], files)
  const people = await deps.views.people([t.sender_id, t.recipient_id])
  return {
    id: t.id,
    number: transmittalLabel(t.number),
    contractId,
    projectId: party.contract.project_id,
    projectTitle: project.title,
    createdAt: t.created_at,
    sender: people.get(t.sender_id) ?? nobody(t.sender_id),
    recipient: people.get(t.recipient_id) ?? nobody(t.recipient_id),
    items: issues.map((i) => {
      const d = byId.get(i.deliverable_id)!
      const v = views.get(i.deliverable_id)!.find((x) => x.id === i.id)!
      return {
        deliverableId: d.id,
        number: d.number,
        title: d.title,
        discipline: d.discipline,
        revision: v.revision,
        status: v.status,
        note: v.note,
        files: v.files,
      }
    }),
  }
}

export function createRegisterReads(deps: ReadDeps) {
  return {
    register: register.bind(null, deps),
    deliverable: deliverable.bind(null, deps),
    transmittal: transmittal.bind(null, deps),
  }
}
