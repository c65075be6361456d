import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import type { ChatService } from '../chat/service.ts'
import type { ContractState, ProjectState, ProposalState } from './machines.ts'
import { limits, planTotal } from './rules.ts'
import { subscribers } from './reads.ts'
import { clientsProposal } from './received-proposals.ts'
import { closePending } from './project-status.ts'
import type { ProjectSearchIndex } from './search-index.ts'
import {
  lockRow,
  notify,
  recordCreated,
  transitionProject,
  transitionProposal,
  type Effect,
  type Trx,
} from './transition.ts'
import {
  newestPage,
  nowIso,
  pageOf,
  parsePlan,
  spoken,
  type PageQuery,
  type ProjectRow,
  type ProposalRow,
} from './shared.ts'
import type { ProjectViews } from './views.ts'

// The hire: the client accepts a proposal, the project is taken, the contract starts with its
// installments (or, on an hourly project, its rate and weekly limit) and the two parties' chat room; and the list of a user's contracts, on either side.

/** The agreed installments: the proposal's plan, else the project's when it matches the bid, else one for the whole bid. */
function agreedPlan(project: ProjectRow, proposal: ProposalRow) {
  const proposed = parsePlan(proposal.installment_plan)
  const projectPlan = parsePlan(project.installment_plan)
  if (proposed.length) return proposed
  if (projectPlan.length && planTotal(projectPlan) === proposal.bid_minor) return projectPlan
  return [{ title: project.title.slice(0, limits.installmentTitle), amountMinor: proposal.bid_minor }]
}

/** The accepted proposal's contract, its installments and the parties' chat room. */
async function startContract(
  trx: Trx,
  chat: Pick<ChatService, 'openRoom'>,
  actorId: number,
  proj: ProjectRow,
  p: ProposalRow,
) {
  const now = nowIso()
  // An hourly proposal becomes a contract billed by the hour within its weekly limit, with no
  // installments (decision 323); its weeks are charged as the freelancer's timesheets are approved.
  const hourly = proj.budget_type === 'hourly'
  // The same room if the client already opened it to ask questions.
  const roomId = await chat.openRoom(trx, {
    projectId: proj.id,
    clientId: proj.client_id,
    freelancerId: p.freelancer_id,
  })
  const contract = await trx
    .insertInto('contract')
    .values({
      project_id: proj.id,
      proposal_id: p.id,
      client_id: proj.client_id,
      freelancer_id: p.freelancer_id,
      status: 'active',
      // An hourly contract's value grows with its approved weeks; a fixed one is its bid.
      amount_minor: hourly ? 0 : p.bid_minor,
      currency: p.currency,
      billing: hourly ? 'hourly' : 'fixed',
      hourly_rate_minor: hourly ? p.bid_minor : null,
      weekly_limit_hours: hourly ? (p.weekly_hours ?? proj.hours_per_week) : null,
      room_id: String(roomId),
      created_at: now,
      updated_at: now,
      ended_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  if (!hourly)
    await trx
      .insertInto('installment')
      .values(
        agreedPlan(proj, p).map((i, n) => ({
          contract_id: contract.id,
          position: n + 1,
          title: i.title,
          amount_minor: i.amountMinor,
          currency: p.currency,
          due_date: i.dueDate ?? null,
          status: 'pending',
          submission_note: null,
          feedback: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute()
  // No notification of its own (issue 39 item 6: one event, one notification): the freelancer's
  // "Proposal accepted" says the contract started, and the client started it.
  await recordCreated(trx, 'contract', contract.id, 'active', proj.id, actorId)
  return contract.id
}

/** The proposal accepted and the project taken; its followers hear that it is. */
async function hire(
  trx: Trx,
  actorId: number,
  proj: ProjectRow,
  p: ProposalRow,
  hasContract: boolean,
  notice: Effect,
) {
  const guard = () =>
    proj.status !== 'open'
      ? `The project is ${spoken(proj.status)}; it takes no more hires`
      : hasContract
        ? 'The project already has a contract'
        : null
  const followers = await subscribers(trx, proj.id)
  await transitionProposal(trx, {
    id: p.id,
    current: p.status as ProposalState,
    action: 'accept',
    actor: 'client',
    actorId,
    projectId: proj.id,
    guard,
    set: { decided_at: nowIso() },
    effects: [notice],
  })
  await transitionProject(trx, {
    id: proj.id,
    current: proj.status as ProjectState,
    action: 'hire',
    actor: 'client',
    actorId,
    projectId: proj.id,
    effects: followers.length
      ? [
          notify(
            followers.filter((f) => f !== p.freelancer_id),
            'projectTaken',
            proj.id,
            'ProjectStatus',
            { title: proj.title },
          ),
        ]
      : [],
  })
}

/**
 * The hire, in the caller's transaction: the proposal accepted, the project taken, the contract
 * started, the other proposals closed and the project out of search. A client's acceptance of a
 * proposal and a freelancer's acceptance of a direct offer (decision 342) both come here; `notice`
 * is what the other party hears.
 */
export async function hireProposal(
  trx: Trx,
  deps: { chat: Pick<ChatService, 'openRoom'>; index: ProjectSearchIndex },
  step: { actorId: number; project: ProjectRow; proposal: ProposalRow; hasContract: boolean; notice: Effect },
) {
  const { actorId, project: proj, proposal: p } = step
  await hire(trx, actorId, proj, p, step.hasContract, step.notice)
  const id = await startContract(trx, deps.chat, actorId, proj, p)
  await closePending(trx, proj.id, proj.title, 'taken', p.id)
  await deps.index.remove(trx, proj.id)
  return id
}

type ContractDeps = {
  db: DB
  dialect: Dialect
  chat: Pick<ChatService, 'openRoom'>
  index: ProjectSearchIndex
  views: Pick<ProjectViews, 'contracts' | 'contract'>
}

async function accept(deps: ContractDeps, caller: Caller, proposalId: number, projectId: number) {
  const { db, dialect, chat, index, views } = deps
  await clientsProposal(db, caller, proposalId, projectId)
  const contractId = await db.transaction().execute(async (trx) => {
    // The project row is locked first, so two accepts on one project run one after the other.
    const proj = (await lockRow(trx, dialect, 'project', projectId))!
    const p = (await lockRow(trx, dialect, 'proposal', proposalId))!
    const existing = await trx
      .selectFrom('contract')
      .select(['id', 'proposal_id'])
      .where('project_id', '=', projectId)
      .executeTakeFirst()
    if (p.status === 'accepted' && existing?.proposal_id === p.id) return existing.id
    return hireProposal(
      trx,
      { chat, index },
      {
        actorId: caller.userId,
        project: proj,
        proposal: p,
        hasContract: !!existing,
        notice: notify([p.freelancer_id], 'proposalAccepted', proj.id, 'Proposal', { title: proj.title }),
      },
    )
  })
  return views.contract(contractId)
}

async function myContracts(
  deps: ContractDeps,
  caller: Caller,
  query: PageQuery & { status?: ContractState },
) {
  const { db, views } = deps
  let q = db
    .selectFrom('contract')
    .where((eb) => eb.or([eb('freelancer_id', '=', caller.userId), eb('client_id', '=', caller.userId)]))
  if (query.status) q = q.where('status', '=', query.status)
  const { rows, total } = await newestPage(q, query)
  return pageOf(await views.contracts(rows), query, total)
}

export function createContracts(deps: ContractDeps) {
  return {
    accept: accept.bind(null, deps),
    myContracts: myContracts.bind(null, deps),
  }
}
