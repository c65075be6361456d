import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import type { FileService } from '../../files/service.ts'
import type { ProjectState } from '../machines.ts'
import { readProject } from '../reads.ts'
import { nowIso } from '../shared.ts'
import { createProjectViews } from '../views.ts'
import type { ShortlistInput } from './contract.ts'

// The client's shortlist of a project's proposals (decision 336). Every call is scoped to the
// project's client: to anyone else, the proposal's author too, the project and its proposals do
// not exist here (404), so the shortlist and its notes never reach another reader. Nothing is
// written to the activity log or the outbox: the freelancer is never told.

type Deps = { db: DB; files: Pick<FileService, 'downloadUrl'> }

/** The caller's own project, or 404. */
async function clientsProject(db: DB, caller: Caller, projectId: number) {
  const row = await readProject(db, projectId)
  if (!row || row.client_id !== caller.userId) throw notFound('Project')
  return row
}

/** A proposal on one of the caller's projects, or 404. */
async function clientsProposal(db: DB, caller: Caller, proposalId: number) {
  const row = await db
    .selectFrom('proposal as pr')
    .innerJoin('project as p', 'p.id', 'pr.project_id')
    .select(['pr.id', 'pr.project_id'])
    .where('pr.id', '=', proposalId)
    .where('p.client_id', '=', caller.userId)
    .executeTakeFirst()
  if (!row) throw notFound('Proposal')
  return row
}

const entryOf = (r: { proposal_id: number; note: string | null; created_at: string }) => ({
  proposalId: r.proposal_id,
  note: r.note,
  shortlistedAt: r.created_at,
})

async function put({ db }: Deps, caller: Caller, proposalId: number, input: ShortlistInput) {
  const proposal = await clientsProposal(db, caller, proposalId)
  const now = nowIso()
  const row = { note: input.note, updated_at: now }
  await db
    .insertInto('proposal_shortlist')
    .values({
      proposal_id: proposal.id,
      project_id: proposal.project_id,
      client_id: caller.userId,
      created_at: now,
      ...row,
    })
    .onConflict((oc) => oc.column('proposal_id').doUpdateSet(row))
    .execute()
  return entryOf(
    await db
      .selectFrom('proposal_shortlist')
      .selectAll()
      .where('proposal_id', '=', proposal.id)
      .executeTakeFirstOrThrow(),
  )
}

async function remove({ db }: Deps, caller: Caller, proposalId: number) {
  const proposal = await clientsProposal(db, caller, proposalId)
  await db.deleteFrom('proposal_shortlist').where('proposal_id', '=', proposal.id).execute()
  return { ok: true as const }
}

async function compare(deps: Deps, caller: Caller, projectId: number) {
  const { db } = deps
  const project = await clientsProject(db, caller, projectId)
  const rows = await db
    .selectFrom('proposal_shortlist as s')
    .innerJoin('proposal as pr', 'pr.id', 's.proposal_id')
    .selectAll('pr')
    .select(['s.note as shortlist_note', 's.created_at as shortlisted_at'])
    .where('s.project_id', '=', project.id)
    .where('s.client_id', '=', caller.userId)
    .orderBy('s.created_at')
    .orderBy('s.proposal_id')
    .execute()
  const proposals = await createProjectViews(deps).proposals(
    rows.map(({ shortlist_note: _n, shortlisted_at: _s, ...pr }) => pr),
  )
  return {
    project: {
      id: project.id,
      title: project.title,
      status: project.status as ProjectState,
      hourly: project.budget_type === 'hourly',
    },
    data: rows.map((r, n) => ({
      proposalId: r.id,
      note: r.shortlist_note,
      shortlistedAt: r.shortlisted_at,
      proposal: proposals[n],
    })),
  }
}

export function createShortlist(deps: Deps) {
  return {
    compare: (c: Caller, projectId: number) => compare(deps, c, projectId),
    put: (c: Caller, proposalId: number, input: ShortlistInput) => put(deps, c, proposalId, input),
    remove: (c: Caller, proposalId: number) => remove(deps, c, proposalId),
  }
}

export type Shortlist = ReturnType<typeof createShortlist>
