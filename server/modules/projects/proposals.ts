import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError, forbidden, notFound } from '#server/api/errors.ts'
import type { ProposalInput } from './contract.ts'
import type { ProposalState } from './machines.ts'
import { planTotal } from './rules.ts'
import { problem } from './schemas/fields.ts'
import { readProject } from './reads.ts'
import { mustSee } from './access.ts'
import { conflict, lockRow, notify, recordCreated, transitionProposal, type Trx } from './transition.ts'
import {
  badRequest,
  isFreelancer,
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

// A freelancer's proposals: sending one on an open project, revising it while the client has not
// decided, withdrawing it, and the list of their own. The client's side is received-proposals.ts;
// hiring is contracts.ts.

/**
 * A fixed price's plan must add up to the bid when the freelancer gives one; an hourly proposal
 * offers hours a week and no installments (decision 323).
 */
function checkPlan(project: Pick<ProjectRow, 'budget_type'>, input: ProposalInput) {
  if (project.budget_type === 'hourly') {
    if (input.weeklyHours === undefined) throw badRequest('weeklyHours', problem('hours'))
    if (input.installments.length) throw badRequest('installments', problem('hourlyNoPlan'))
    return
  }
  if (input.installments.length && planTotal(input.installments) !== input.bidMinor)
    throw badRequest('installments', 'must add up to the bid')
}

/** The hours a week a proposal stores: an hourly project's only (a fixed price has none). */
const weeklyHoursOf = (project: Pick<ProjectRow, 'budget_type'>, input: ProposalInput) =>
  project.budget_type === 'hourly' ? (input.weeklyHours ?? null) : null

/** A repeated identical submit (a double click, a retried request) answers with the proposal already made. */
const sameAsExisting = (p: ProposalRow, input: ProposalInput) =>
  p.cover_letter === input.coverLetter &&
  p.bid_minor === input.bidMinor &&
  p.duration_days === input.durationDays &&
  (p.weekly_hours === null || p.weekly_hours === input.weeklyHours) &&
  p.installment_plan === JSON.stringify(input.installments)

const secondProposal = () =>
  new ApiError(409, 'Conflict', 'You have already sent a proposal on this project; edit it instead', {
    proposal: ['You have already sent a proposal on this project; edit it instead'],
  })

const proposalOf = (executor: DB, projectId: number, freelancerId: number) =>
  executor
    .selectFrom('proposal')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('freelancer_id', '=', freelancerId)
    .executeTakeFirst()

/** Inserts the proposal in the caller's transaction, or answers the identical one already made. */
async function insertProposal(
  trx: Trx,
  dialect: Dialect,
  caller: Caller,
  projectId: number,
  input: ProposalInput,
) {
  const p = (await lockRow(trx, dialect, 'project', projectId))!
  if (p.client_id === caller.userId) throw forbidden()
  const before = await proposalOf(trx, projectId, caller.userId)
  if (before) {
    if (sameAsExisting(before, input)) return before.id
    throw secondProposal()
  }
  if (p.status !== 'open')
    throw conflict(`The project is ${spoken(p.status)}; it takes no proposals`, p.status)
  checkPlan(p, input)
  const now = nowIso()
  const created = await trx
    .insertInto('proposal')
    .values({
      project_id: projectId,
      freelancer_id: caller.userId,
      status: 'pending',
      cover_letter: input.coverLetter,
      bid_minor: input.bidMinor,
      currency: p.currency,
      duration_days: input.durationDays,
      weekly_hours: weeklyHoursOf(p, input),
      installment_plan: JSON.stringify(input.installments),
      revision: 1,
      reject_reason: null,
      created_at: now,
      updated_at: now,
      decided_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await trx
    .updateTable('project')
    .set((eb) => ({ proposal_count: eb('proposal_count', '+', 1) }))
    .where('id', '=', projectId)
    .execute()
  await recordCreated(trx, 'proposal', created.id, 'pending', projectId, caller.userId, [
    notify([p.client_id], 'proposalReceivedFrom', projectId, 'Proposal', { title: p.title }, caller.userId),
  ])
  return created.id
}

type ProposalDeps = {
  db: DB
  dialect: Dialect
  views: Pick<ProjectViews, 'proposals' | 'proposal'>
}

async function propose(deps: ProposalDeps, caller: Caller, projectId: number, input: ProposalInput) {
  const { db, dialect, views } = deps
  if (!isFreelancer(caller)) throw new ApiError(403, 'Forbidden', 'Only freelancers send proposals')
  const row = await readProject(db, projectId)
  if (!row || (row.status !== 'open' && row.client_id !== caller.userId)) throw notFound('Project')
  await mustSee(db, caller, row)
  let id: number
  try {
    id = await db.transaction().execute((trx) => insertProposal(trx, dialect, caller, projectId, input))
  } catch (error) {
    if (error instanceof ApiError) throw error
    // Two identical submits at the same moment: the unique (project, freelancer) key let one in.
    const after = await proposalOf(db, projectId, caller.userId)
    if (!after) throw error
    if (!sameAsExisting(after, input)) throw secondProposal()
    id = after.id
  }
  return views.proposal(id)
}

async function ownProposal(db: DB, caller: Caller, proposalId: number) {
  const p = await db.selectFrom('proposal').selectAll().where('id', '=', proposalId).executeTakeFirst()
  if (!p || p.freelancer_id !== caller.userId) throw notFound('Proposal')
  return p
}

async function reviseProposal(deps: ProposalDeps, caller: Caller, proposalId: number, input: ProposalInput) {
  const { db, dialect, views } = deps
  await ownProposal(db, caller, proposalId)
  await db.transaction().execute(async (trx) => {
    const p = (await lockRow(trx, dialect, 'proposal', proposalId))!
    const proj = await trx
      .selectFrom('project')
      .select(['status', 'budget_type', 'client_id', 'title'])
      .where('id', '=', p.project_id)
      .executeTakeFirstOrThrow()
    checkPlan(proj, input)
    await trx
      .insertInto('proposal_revision')
      .values({
        proposal_id: p.id,
        revision: p.revision,
        cover_letter: p.cover_letter,
        bid_minor: p.bid_minor,
        duration_days: p.duration_days,
        weekly_hours: p.weekly_hours,
        installment_plan: p.installment_plan,
        created_at: p.updated_at,
      })
      .execute()
    await transitionProposal(trx, {
      id: p.id,
      current: p.status as ProposalState,
      action: 'revise',
      actor: 'freelancer',
      actorId: caller.userId,
      projectId: p.project_id,
      guard: () =>
        proj.status === 'open'
          ? null
          : `The project is ${spoken(proj.status)}; the proposal can no longer change`,
      set: {
        cover_letter: input.coverLetter,
        bid_minor: input.bidMinor,
        duration_days: input.durationDays,
        weekly_hours: weeklyHoursOf(proj, input),
        installment_plan: JSON.stringify(input.installments),
        revision: p.revision + 1,
      },
      note: `revision ${p.revision + 1}`,
      effects: [
        notify(
          [proj.client_id],
          'proposalRevisedBy',
          p.project_id,
          'Proposal',
          { title: proj.title },
          caller.userId,
        ),
      ],
    })
  })
  return views.proposal(proposalId)
}

async function withdrawProposal(deps: ProposalDeps, caller: Caller, proposalId: number) {
  const { db, dialect, views } = deps
  await ownProposal(db, caller, proposalId)
  await db.transaction().execute(async (trx) => {
    const p = (await lockRow(trx, dialect, 'proposal', proposalId))!
    const proj = await trx
      .selectFrom('project')
      .select(['client_id', 'title'])
      .where('id', '=', p.project_id)
      .executeTakeFirstOrThrow()
    await transitionProposal(trx, {
      id: p.id,
      current: p.status as ProposalState,
      action: 'withdraw',
      actor: 'freelancer',
      actorId: caller.userId,
      projectId: p.project_id,
      set: { decided_at: nowIso() },
      effects: [
        notify(
          [proj.client_id],
          'proposalWithdrawnBy',
          p.project_id,
          'Proposal',
          { title: proj.title },
          caller.userId,
        ),
      ],
    })
    await trx
      .updateTable('project')
      .set((eb) => ({ proposal_count: eb('proposal_count', '-', 1) }))
      .where('id', '=', p.project_id)
      .where('proposal_count', '>', 0)
      .execute()
  })
  return views.proposal(proposalId)
}

async function proposalRevisions(deps: ProposalDeps, caller: Caller, proposalId: number) {
  const { db } = deps
  const p = await db
    .selectFrom('proposal as pr')
    .innerJoin('project as p', 'p.id', 'pr.project_id')
    .select(['pr.freelancer_id', 'p.client_id'])
    .where('pr.id', '=', proposalId)
    .executeTakeFirst()
  if (!p || (p.freelancer_id !== caller.userId && p.client_id !== caller.userId)) throw notFound('Proposal')
  const rows = await db
    .selectFrom('proposal_revision')
    .selectAll()
    .where('proposal_id', '=', proposalId)
    .orderBy('revision', 'desc')
    .execute()
  return {
    data: rows.map((r) => ({
      revision: r.revision,
      coverLetter: r.cover_letter,
      bidMinor: r.bid_minor,
      durationDays: r.duration_days,
      weeklyHours: r.weekly_hours,
      installments: parsePlan(r.installment_plan),
      createdAt: r.created_at,
    })),
  }
}

async function myProposals(
  deps: ProposalDeps,
  caller: Caller,
  query: PageQuery & { status?: ProposalState },
) {
  const { db, views } = deps
  let q = db.selectFrom('proposal').where('freelancer_id', '=', caller.userId)
  if (query.status) q = q.where('status', '=', query.status)
  const { rows, total } = await newestPage(q, query)
  return pageOf(await views.proposals(rows), query, total)
}

export function createProposals(deps: ProposalDeps) {
  return {
    propose: propose.bind(null, deps),
    reviseProposal: reviseProposal.bind(null, deps),
    withdrawProposal: withdrawProposal.bind(null, deps),
    proposalRevisions: proposalRevisions.bind(null, deps),
    myProposals: myProposals.bind(null, deps),
  }
}
