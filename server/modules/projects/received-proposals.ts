import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { forbidden, notFound } from '#server/api/errors.ts'
import type { ProposalState } from './machines.ts'
import { knownToOthers, ownProject } from './access.ts'
import { readProject } from './reads.ts'
import { lockRow, notify, transitionProposal } from './transition.ts'
import { isFreelancer, newestPage, nowIso, pageOf, type PageQuery } from './shared.ts'
import type { ProjectViews } from './views.ts'

// The proposals a client's project received: the list, and the rejection (the hire is contracts.ts).

/** The client's decision on a proposal: both ids must match, the caller must own the project. */
export async function clientsProposal(db: DB, caller: Caller, proposalId: number, projectId: number) {
  const proj = await readProject(db, projectId)
  if (!proj) throw notFound('Project')
  if (proj.client_id !== caller.userId)
    throw (isFreelancer(caller) && proj.visibility !== 'invited') || knownToOthers(proj)
      ? forbidden()
      : notFound('Project')
  const p = await db
    .selectFrom('proposal')
    .select(['id', 'project_id'])
    .where('id', '=', proposalId)
    .executeTakeFirst()
  if (!p || p.project_id !== projectId) throw notFound('Proposal')
}

type ReceivedProposalDeps = {
  db: DB
  dialect: Dialect
  views: Pick<ProjectViews, 'proposals' | 'proposal'>
}

async function clientProposals(
  deps: ReceivedProposalDeps,
  caller: Caller,
  projectId: number,
  query: PageQuery & { status?: ProposalState },
) {
  const { db, views } = deps
  await ownProject(db, caller, projectId)
  let q = db.selectFrom('proposal').where('project_id', '=', projectId).where('status', '!=', 'withdrawn')
  if (query.status) q = q.where('status', '=', query.status)
  const { rows, total } = await newestPage(q, query)
  return pageOf(await views.proposals(rows), query, total)
}

async function reject(
  deps: ReceivedProposalDeps,
  caller: Caller,
  proposalId: number,
  projectId: number,
  reason?: string,
) {
  const { db, dialect, views } = deps
  await clientsProposal(db, caller, proposalId, projectId)
  await db.transaction().execute(async (trx) => {
    const proj = (await lockRow(trx, dialect, 'project', projectId))!
    const p = (await lockRow(trx, dialect, 'proposal', proposalId))!
    await transitionProposal(trx, {
      id: p.id,
      current: p.status as ProposalState,
      action: 'reject',
      actor: 'client',
      actorId: caller.userId,
      projectId,
      note: reason || null,
      set: { decided_at: nowIso(), reject_reason: reason || null },
      effects: [notify([p.freelancer_id], 'proposalRejected', projectId, 'Proposal', { title: proj.title })],
    })
  })
  return views.proposal(proposalId)
}

export function createReceivedProposals(deps: ReceivedProposalDeps) {
  return {
    clientProposals: clientProposals.bind(null, deps),
    reject: reject.bind(null, deps),
  }
}
