import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { mustSee, ownProject, participant } from './access.ts'
import { readContractOfProject, readProject, receivedProposals } from './reads.ts'
import { isFreelancer, offsetOf, pageOf, type PageQuery } from './shared.ts'
import type { ProjectViews } from './views.ts'

// A project's page as each side sees it: a freelancer the project with their own proposal and
// contract, the client with every proposal received, the contract and the recent history.

type ProjectDetailDeps = {
  db: DB
  views: ProjectViews
}

async function detailsForFreelancer(deps: ProjectDetailDeps, caller: Caller, id: number, locale: Locale) {
  const { db, views } = deps
  const row = await readProject(db, id)
  if (!row) throw notFound('Project')
  await mustSee(db, caller, row)
  const [proposal, contract] = await Promise.all([
    db
      .selectFrom('proposal')
      .selectAll()
      .where('project_id', '=', id)
      .where('freelancer_id', '=', caller.userId)
      .executeTakeFirst(),
    readContractOfProject(db, id).then((c) => (c?.freelancer_id === caller.userId ? c : undefined)),
  ])
  // A freelancer sees open projects, and the ones they proposed on or hold a contract for.
  if (row.status !== 'open' && !proposal && !contract && row.client_id !== caller.userId)
    throw notFound('Project')
  const [project, [proposalOut], [contractOut]] = await Promise.all([
    views.details(row, caller, locale),
    proposal ? views.proposals([proposal]) : [null],
    contract ? views.contracts([contract]) : [null],
  ])
  return {
    project,
    proposal: proposalOut ?? null,
    contract: contractOut ?? null,
    canPropose: row.status === 'open' && !proposal && isFreelancer(caller) && row.client_id !== caller.userId,
  }
}

async function detailsForClient(deps: ProjectDetailDeps, caller: Caller, id: number, locale: Locale) {
  const { db, views } = deps
  const row = await ownProject(db, caller, id)
  const [proposals, contract] = await Promise.all([receivedProposals(db, id), readContractOfProject(db, id)])
  const [project, proposalList, contracts, activity] = await Promise.all([
    views.details(row, caller, locale),
    views.proposals(proposals),
    contract ? views.contracts([contract]) : [],
    views.activityPage(id, 0, 50).then((page) => page.data),
  ])
  return { project, proposals: proposalList, contract: contracts[0] ?? null, activity }
}

/** The project's history, for its client and its hired freelancer. */
async function activities(deps: ProjectDetailDeps, caller: Caller, projectId: number, query: PageQuery) {
  const { db, views } = deps
  const { role } = await participant(db, caller, projectId)
  if (!role) throw notFound('Project')
  const { data, total } = await views.activityPage(projectId, offsetOf(query), query.pageSize)
  return pageOf(data, query, total)
}

export function createProjectDetails(deps: ProjectDetailDeps) {
  return {
    detailsForFreelancer: detailsForFreelancer.bind(null, deps),
    detailsForClient: detailsForClient.bind(null, deps),
    activities: activities.bind(null, deps),
  }
}
