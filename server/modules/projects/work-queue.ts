import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { nobody, type Person } from './views.ts'
import {
  installmentMachine,
  proposalStates,
  projectStates,
  type InstallmentState,
  type ProjectState,
  type ProposalState,
} from './machines.ts'
import { hourlyProgress, type HourlyProgress } from './timesheets/open-weeks.ts'

// What waits on a client or a freelancer across all their projects (the dashboard's work lists):
// projects with proposals to decide, proposals and their state, and each active contract's next
// step with whose move it is. Read-only and scoped to the caller's own rows; a few small queries
// whatever the size of the marketplace (each list is capped, counts are aggregates).
type People = (ids: number[]) => Promise<Map<number, Person>>
export type Side = 'client' | 'freelancer'

/** How many items each list shows; the counts say how many there are in all. */
export const QUEUE_LIMIT = 5
const CONTRACT_LIMIT = 10

/**
 * Whose move an installment in this state waits for, read from its state machine: the one person
 * who may take a transition out of it. Null when only the system moves it (a payout) or nothing
 * does (released), so the installment no longer holds the contract up.
 */
export function turnOf(state: InstallmentState): Side | null {
  const actors = new Set(
    installmentMachine.transitions
      .filter((t) => t.from.includes(state))
      .flatMap((t) => (t.startedBy ? [t.startedBy] : t.actors.filter((a): a is Side => a !== 'system'))),
  )
  return actors.size === 1 ? [...actors][0]! : null
}

const countsOf = <S extends string>(
  states: readonly S[],
  rows: Array<{ status: string; n: number | string | bigint }>,
) =>
  Object.fromEntries(states.map((s) => [s, Number(rows.find((r) => r.status === s)?.n ?? 0)])) as Record<
    S,
    number
  >

/** The client's open projects with proposals waiting for a decision, the newest proposal first; and how many projects they have in each state. */
async function projectsToDecide(db: DB, userId: number) {
  const waiting = db
    .selectFrom('project as p')
    .innerJoin('proposal as pr', 'pr.project_id', 'p.id')
    .where('p.client_id', '=', userId)
    .where('p.status', '=', 'open')
    .where('pr.status', '=', 'pending')
  const [rows, total, byState] = await Promise.all([
    waiting
      .select((eb) => [
        'p.id',
        'p.title',
        eb.fn.countAll<number>().as('pending'),
        eb.fn.max('pr.created_at').as('latest'),
      ])
      .groupBy(['p.id', 'p.title'])
      .orderBy('latest', 'desc')
      .orderBy('p.id', 'desc')
      .limit(QUEUE_LIMIT)
      .execute(),
    waiting.select((eb) => eb.fn.count<number>('p.id').distinct().as('n')).executeTakeFirst(),
    db
      .selectFrom('project')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .where('client_id', '=', userId)
      .groupBy('status')
      .execute(),
  ])
  return {
    total: Number(total?.n ?? 0),
    items: rows.map((r) => ({
      id: r.id,
      title: r.title,
      pendingProposals: Number(r.pending),
      latestProposalAt: String(r.latest),
    })),
    byState: countsOf<ProjectState>(projectStates, byState),
  }
}

/** The freelancer's proposals, the most recently changed first, and how many are in each state. */
async function proposals(db: DB, userId: number) {
  const [rows, byState] = await Promise.all([
    db
      .selectFrom('proposal as pr')
      .innerJoin('project as p', 'p.id', 'pr.project_id')
      .select([
        'pr.id',
        'pr.project_id',
        'p.title',
        'pr.status',
        'pr.bid_minor',
        'pr.weekly_hours',
        'pr.currency',
        'pr.updated_at',
      ])
      .where('pr.freelancer_id', '=', userId)
      .orderBy('pr.updated_at', 'desc')
      .orderBy('pr.id', 'desc')
      .limit(QUEUE_LIMIT)
      .execute(),
    db
      .selectFrom('proposal')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .where('freelancer_id', '=', userId)
      .groupBy('status')
      .execute(),
  ])
  return {
    items: rows.map((r) => ({
      id: r.id,
      projectId: r.project_id,
      projectTitle: r.title,
      status: r.status as ProposalState,
      bidMinor: r.bid_minor,
      weeklyHours: r.weekly_hours,
      currency: r.currency,
      updatedAt: r.updated_at,
    })),
    byState: countsOf<ProposalState>(proposalStates, byState),
  }
}

type PlanRow = {
  id: number
  position: number
  title: string
  amount_minor: number
  currency: string
  due_date: string | null
  status: string
}

/** A contract's next step: the first installment someone still has to move, whose move it is, and how far the plan is. */
function nextStep(role: Side, plan: PlanRow[]) {
  const next = plan.find((i) => turnOf(i.status as InstallmentState) !== null)
  // Nothing left to move: the contract waits for the client to complete it.
  const waitingOn: Side = next ? turnOf(next.status as InstallmentState)! : 'client'
  return {
    waitingOn,
    yourTurn: waitingOn === role,
    next: next
      ? {
          id: next.id,
          position: next.position,
          title: next.title,
          amountMinor: next.amount_minor,
          currency: next.currency,
          dueDate: next.due_date,
          status: next.status as InstallmentState,
        }
      : null,
    installmentsDone: plan.filter((i) => turnOf(i.status as InstallmentState) === null).length,
    installmentsTotal: plan.length,
  }
}

/**
 * An hourly contract with no week to pay waits on its timesheet: the freelancer submits or corrects
 * a week (or logs time when none is open), the client reviews or pays one (decision 334).
 */
function hourlyStep(role: Side, step: ReturnType<typeof nextStep>, hours: HourlyProgress | undefined) {
  if (!hours || step.next) return step
  const status = hours.openWeek?.status
  const waitingOn: Side = status === 'submitted' || status === 'unpaid' ? 'client' : 'freelancer'
  return { ...step, waitingOn, yourTurn: waitingOn === role }
}

/**
 * The caller's active contracts, on either side, each with its next step: the first installment
 * someone still has to move and whose move it is; with none left, the client's completion.
 * The ones waiting on the caller come first.
 */
async function contracts(db: DB, people: People, userId: number) {
  const mine = db
    .selectFrom('contract')
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('client_id', '=', userId), eb('freelancer_id', '=', userId)]))
  const [rows, total] = await Promise.all([
    mine
      .select([
        'id',
        'project_id',
        'client_id',
        'freelancer_id',
        'created_at',
        'billing',
        'currency',
        'hourly_rate_minor',
        'weekly_limit_hours',
      ])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(CONTRACT_LIMIT)
      .execute(),
    mine.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  if (!rows.length) return { total: 0, items: [] }
  const ids = rows.map((r) => r.id)
  const [titles, installments, users, hours] = await Promise.all([
    db
      .selectFrom('project')
      .select(['id', 'title'])
      .where(
        'id',
        'in',
        rows.map((r) => r.project_id),
      )
      .execute(),
    db
      .selectFrom('installment')
      .select(['id', 'contract_id', 'position', 'title', 'amount_minor', 'currency', 'due_date', 'status'])
      .where('contract_id', 'in', ids)
      .orderBy('contract_id')
      .orderBy('position')
      .execute(),
    people(rows.map((r) => (r.client_id === userId ? r.freelancer_id : r.client_id))),
    hourlyProgress(
      db,
      rows.filter((r) => r.billing === 'hourly').map((r) => r.id),
    ),
  ])
  const title = new Map(titles.map((t) => [t.id, t.title]))
  const byContract = Map.groupBy(installments, (i) => i.contract_id)
  const items = rows.map((r) => {
    const role: Side = r.client_id === userId ? 'client' : 'freelancer'
    const other = role === 'client' ? r.freelancer_id : r.client_id
    return {
      contractId: r.id,
      projectId: r.project_id,
      projectTitle: title.get(r.project_id) ?? '',
      role,
      other: users.get(other) ?? nobody(other),
      ...hourlyStep(role, nextStep(role, byContract.get(r.id) ?? []), hours.get(r.id)),
      // An hourly contract's card shows its terms and this week's hours instead of installment progress (decision 334).
      hourly: hours.has(r.id)
        ? {
            rateMinor: r.hourly_rate_minor ?? 0,
            currency: r.currency,
            weeklyLimitHours: r.weekly_limit_hours,
            ...hours.get(r.id)!,
          }
        : null,
    }
  })
  // Stable: within each group the newest contract stays first.
  items.sort((a, b) => Number(b.yourTurn) - Number(a.yourTurn))
  return { total: Number(total?.n ?? 0), items }
}

/** Completed contracts the caller has not reviewed yet. */
async function reviewsToWrite(db: DB, userId: number) {
  const row = await db
    .selectFrom('contract as c')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('c.status', '=', 'completed')
    .where((eb) => eb.or([eb('c.client_id', '=', userId), eb('c.freelancer_id', '=', userId)]))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('review as r')
            .select('r.id')
            .whereRef('r.contract_id', '=', 'c.id')
            .where('r.author_id', '=', userId),
        ),
      ),
    )
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

export function createWorkQueue({ db, people }: { db: DB; people: People }) {
  /** Everything waiting on the caller, by side: a client's projects, a freelancer's proposals, and the contracts of both. */
  return async function workQueue(caller: Caller, sides: { client: boolean; freelancer: boolean }) {
    const [asClient, asFreelancer, active, toReview] = await Promise.all([
      sides.client ? projectsToDecide(db, caller.userId) : null,
      sides.freelancer ? proposals(db, caller.userId) : null,
      sides.client || sides.freelancer ? contracts(db, people, caller.userId) : { total: 0, items: [] },
      sides.client || sides.freelancer ? reviewsToWrite(db, caller.userId) : 0,
    ])
    return { projects: asClient, proposals: asFreelancer, contracts: active, reviewsToWrite: toReview }
  }
}
