import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { forbidden, notFound } from '#server/api/errors.ts'
import type { FileService } from '../../files/service.ts'

// Who may see a contract's register: its client and its freelancer, and no one else (404, files
// included). Only the freelancer issues, only the client answers (403 for the other party).

/** The files purpose of an issue's files. */
export const FILE_PURPOSE = 'deliverable'

type ContractLink = {
  id: number
  client_id: number
  freelancer_id: number
  project_id: number
  status: string
}
export type Party = { contract: ContractLink; role: 'client' | 'freelancer' }

function partyOf(contract: ContractLink | undefined, caller: Caller, what: string): Party {
  if (contract?.client_id === caller.userId) return { contract, role: 'client' }
  if (contract?.freelancer_id === caller.userId) return { contract, role: 'freelancer' }
  throw notFound(what)
}

const contractColumns = ['c.id', 'c.client_id', 'c.freelancer_id', 'c.project_id', 'c.status'] as const

/** The contract of a project, for one of its parties. */
export async function registerOf(db: DB, caller: Caller, projectId: number) {
  const contract = await db
    .selectFrom('contract as c')
    .select(contractColumns)
    .where('c.project_id', '=', projectId)
    .executeTakeFirst()
  return partyOf(contract, caller, 'Register')
}

/** A deliverable and its contract, for one of the contract's parties. */
export async function deliverableOf(db: DB, caller: Caller, deliverableId: number) {
  const row = await db
    .selectFrom('deliverable as d')
    .innerJoin('contract as c', 'c.id', 'd.contract_id')
    .select([...contractColumns, 'd.installment_id'])
    .where('d.id', '=', deliverableId)
    .executeTakeFirst()
  return { ...partyOf(row, caller, 'Deliverable'), installmentId: row?.installment_id ?? 0 }
}

/** An issue, its deliverable and its contract, for one of the contract's parties. */
export async function issueOf(db: DB, caller: Caller, issueId: number) {
  const row = await db
    .selectFrom('deliverable_issue as i')
    .innerJoin('deliverable as d', 'd.id', 'i.deliverable_id')
    .innerJoin('contract as c', 'c.id', 'i.contract_id')
    .select([...contractColumns, 'd.installment_id', 'i.deliverable_id'])
    .where('i.id', '=', issueId)
    .executeTakeFirst()
  return {
    ...partyOf(row, caller, 'Issue'),
    installmentId: row?.installment_id ?? 0,
    deliverableId: row?.deliverable_id ?? 0,
  }
}

/** A transmittal's contract, for one of its parties. */
export async function transmittalOf(db: DB, caller: Caller, transmittalId: number) {
  const row = await db
    .selectFrom('transmittal as t')
    .innerJoin('contract as c', 'c.id', 't.contract_id')
    .select(contractColumns)
    .where('t.id', '=', transmittalId)
    .executeTakeFirst()
  return partyOf(row, caller, 'Transmittal')
}

/** The other party is told no: a client cannot issue, a freelancer cannot answer. */
export function requireRole(party: Party, role: Party['role']) {
  if (party.role !== role) throw forbidden()
}

/** Tells the files module that an issue's files are for the contract's two parties only, and which files the register keeps. */
export function registerDeliverableFiles(
  db: DB,
  files: Pick<FileService, 'setReadPolicy' | 'setReferences'>,
) {
  files.setReadPolicy(FILE_PURPOSE, async (file, caller) => {
    if (!caller) return false
    const row = await db
      .selectFrom('deliverable_issue_file as f')
      .innerJoin('deliverable_issue as i', 'i.id', 'f.issue_id')
      .innerJoin('contract as c', 'c.id', 'i.contract_id')
      .select(['c.client_id', 'c.freelancer_id'])
      .where('f.file_id', '=', file.id)
      .executeTakeFirst()
    return !!row && (row.client_id === caller.userId || row.freelancer_id === caller.userId)
  })
  files.setReferences(FILE_PURPOSE, async (executor, ids) =>
    (
      await executor
        .selectFrom('deliverable_issue_file')
        .select('file_id')
        .where('file_id', 'in', ids)
        .execute()
    ).map((r) => r.file_id),
  )
}
