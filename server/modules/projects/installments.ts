import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import type { InstallmentState } from './machines.ts'
import { projectTitle, type Funded } from './funding.ts'
import { inNamespace, lockRow, notify, transitionInstallment, type Trx } from './transition.ts'
import type { ContractRow, InstallmentRow } from './shared.ts'
import type { ProjectViews } from './views.ts'
import { deliverablesPending, hasDeliverables } from './deliverables/gates.ts'

// The work of a contract, one installment at a time: the freelancer submits, the client asks for
// changes or approves, and approval releases the held money through the payments module at once.

/** What the payments module does when an installment is released, inside the release's transaction. */
export interface MoneyMover {
  release(
    trx: Trx,
    i: {
      installmentId: number
      contractId: number
      clientId: number
      freelancerId: number
      amountMinor: number
      currency: string
    },
  ): Promise<void>
}

type Action = 'submit' | 'request-changes' | 'approve'

/** The contract and installment of a move, locked, with who moves and the other party. */
type Move = {
  trx: Trx
  contract: ContractRow
  i: InstallmentRow
  title: string
  caller: Caller
  actor: 'client' | 'freelancer'
  note?: string
}

type InstallmentDeps = {
  db: DB
  dialect: Dialect
  moneyMover: MoneyMover
  views: Pick<ProjectViews, 'contract'>
}

/** Moves the money of an approved installment and marks it released; the freelancer hears of it. */
async function releaseLocked(
  deps: InstallmentDeps,
  trx: Trx,
  contract: ContractRow,
  i: InstallmentRow,
  title: string,
) {
  const { moneyMover } = deps
  await moneyMover.release(trx, {
    installmentId: i.id,
    contractId: contract.id,
    clientId: contract.client_id,
    freelancerId: contract.freelancer_id,
    amountMinor: i.amount_minor,
    currency: i.currency,
  })
  await transitionInstallment(trx, {
    id: i.id,
    current: i.status as InstallmentState,
    action: 'release',
    actor: 'system',
    actorId: null,
    projectId: contract.project_id,
    effects: [
      notify([contract.freelancer_id], 'installmentReleased', contract.project_id, 'Project', {
        title,
        installment: i.title,
      }),
    ],
  })
}

async function move(
  deps: InstallmentDeps,
  action: Action,
  { trx, contract, i, title, caller, actor, note }: Move,
) {
  const active = () => (contract.status === 'active' ? null : `The contract is ${contract.status}`)
  const other = actor === 'client' ? contract.freelancer_id : contract.client_id
  const step = {
    id: i.id,
    current: i.status as InstallmentState,
    actor,
    actorId: caller.userId,
    projectId: contract.project_id,
    note: note || null,
  }
  const heard = (kind: string) => [
    notify([other], kind, contract.project_id, 'Project', { title, installment: i.title }),
  ]
  if (action === 'submit')
    return transitionInstallment(trx, {
      ...step,
      action: 'submit',
      // An installment with deliverables is submitted by issuing them (decision 318).
      guard: async () =>
        active() ??
        ((await hasDeliverables(trx, i.id)) ? 'Issue the deliverables of this installment instead' : null) ??
        (note ? null : 'Describe the work you submit'),
      set: { submission_note: note ?? null },
      effects: heard('installmentSubmitted'),
    })
  if (action === 'request-changes')
    return transitionInstallment(trx, {
      ...step,
      action: 'request_changes',
      guard: () => active() ?? (note ? null : 'Say what should change'),
      set: { feedback: note ?? null },
      effects: heard('installmentChangesRequested'),
    })
  // The release right after tells the freelancer, once (issue 39 item 6: one event, one notification).
  await transitionInstallment(trx, {
    ...step,
    action: 'approve',
    // Approval of every deliverable of the installment is what lets it be released (decision 318).
    guard: async () => active() ?? (await deliverablesPending(trx, i.id)),
    set: { feedback: note || i.feedback },
  })
  // Approval releases the held money at once, in the same transaction (decision 172).
  await releaseLocked(deps, trx, contract, { ...i, status: 'approved' }, title)
}

async function installmentAction(
  deps: InstallmentDeps,
  caller: Caller,
  installmentId: number,
  action: Action,
  note?: string,
) {
  const { db, dialect, views } = deps
  const found = await db
    .selectFrom('installment as i')
    .innerJoin('contract as c', 'c.id', 'i.contract_id')
    .select(['c.id', 'c.client_id', 'c.freelancer_id', 'c.project_id'])
    .where('i.id', '=', installmentId)
    .executeTakeFirst()
  if (!found || (found.client_id !== caller.userId && found.freelancer_id !== caller.userId))
    throw notFound('Installment')
  const actor = found.client_id === caller.userId ? ('client' as const) : ('freelancer' as const)
  await db.transaction().execute(async (trx) => {
    const contract = (await lockRow(trx, dialect, 'contract', found.id))!
    const i = (await lockRow(trx, dialect, 'installment', installmentId))!
    const title = await projectTitle(trx, contract.project_id)
    await move(deps, action, { trx, contract, i, title, caller, actor, note })
  })
  return views.contract(found.id)
}

/** The installment and its contract, locked in this order; undefined for an unknown installment. */
async function lockInstallment(deps: InstallmentDeps, trx: Trx, installmentId: number) {
  const { dialect } = deps
  const row = await trx
    .selectFrom('installment')
    .select('contract_id')
    .where('id', '=', installmentId)
    .executeTakeFirst()
  if (!row) return undefined
  const contract = (await lockRow(trx, dialect, 'contract', row.contract_id))!
  const i = (await lockRow(trx, dialect, 'installment', installmentId))!
  return { contract, i }
}

/** Releases an approved installment (system: a retry, the auto-release timer); a repeat finds it released and answers false. */
async function releaseInstallment(deps: InstallmentDeps, installmentId: number) {
  const { db } = deps
  return db.transaction().execute(async (trx) => {
    const locked = await lockInstallment(deps, trx, installmentId)
    if (!locked) throw notFound('Installment')
    const { contract, i } = locked
    if (i.status === 'released') return false
    await releaseLocked(deps, trx, contract, i, await projectTitle(trx, contract.project_id))
    return true
  })
}

/**
 * The auto-release timer (decision 183): a submission still unanswered since before `submittedBefore`
 * is approved by the system and released, in one transaction; a second instance finds it moved and answers false.
 */
async function autoRelease(deps: InstallmentDeps, installmentId: number, submittedBefore: string) {
  const { db } = deps
  return db.transaction().execute(async (trx) => {
    const locked = await lockInstallment(deps, trx, installmentId)
    if (!locked) return false
    const { contract, i } = locked
    if (contract.status !== 'active' || i.status !== 'submitted' || i.updated_at >= submittedBefore)
      return false
    const title = await projectTitle(trx, contract.project_id)
    // The client hears that it was approved for them; the freelancer hears of the release, once.
    const parties = [contract.client_id]
    const params = { title, installment: i.title }
    await transitionInstallment(trx, {
      id: i.id,
      current: 'submitted',
      action: 'approve',
      actor: 'system',
      actorId: null,
      projectId: contract.project_id,
      effects: [
        inNamespace(
          'refunds',
          notify(parties, 'installmentAutoApproved', contract.project_id, 'Project', params),
        ),
      ],
    })
    await releaseLocked(deps, trx, contract, { ...i, status: 'approved' }, title)
    return true
  })
}

/**
 * The payment of an approved timesheet week funded its installment (decision 324): the work was
 * approved before it was charged, so the system approves and releases it in the payment's
 * transaction, on the rows the funding locked (decision 363). Installments that are not weeks are
 * left as they are.
 */
async function releaseApprovedHours(
  deps: InstallmentDeps,
  trx: Trx,
  { contract, title, installments }: Funded,
) {
  if (!installments.length) return
  // By the unique installment alone: with stale statistics the planner took the index on the
  // weeks' state for this and read every approved week (decision 363).
  const weeks = await trx
    .selectFrom('timesheet_week')
    .select(['installment_id', 'status'])
    .where(
      'installment_id',
      'in',
      installments.map((i) => i.id),
    )
    .execute()
  const approved = new Set(weeks.filter((w) => w.status === 'approved').map((w) => w.installment_id))
  for (const i of installments) {
    if (!approved.has(i.id) || i.status !== 'funded') continue
    await transitionInstallment(trx, {
      id: i.id,
      current: 'funded',
      action: 'approve_hours',
      actor: 'system',
      actorId: null,
      projectId: contract.project_id,
    })
    await releaseLocked(deps, trx, contract, { ...i, status: 'approved' }, title)
  }
}

export function createInstallments(deps: InstallmentDeps) {
  return {
    releaseApprovedHours: releaseApprovedHours.bind(null, deps),
    installmentAction: installmentAction.bind(null, deps),
    releaseInstallment: releaseInstallment.bind(null, deps),
    autoRelease: autoRelease.bind(null, deps),
  }
}
