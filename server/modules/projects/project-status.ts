import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { heldStates, type ContractState, type ProjectState } from './machines.ts'
import { ownProject } from './access.ts'
import { subscribers } from './reads.ts'
import { indexProject } from './search.ts'
import type { ProjectSearchIndex } from './search-index.ts'
import { publishOrSubmit } from './review/publish.ts'
import {
  conflict,
  lockRow,
  notify,
  transitionContract,
  transitionProject,
  transitionProposal,
  type Trx,
} from './transition.ts'
import { nowIso, spoken, type ContractRow, type ProjectRow } from './shared.ts'
import { pointRules } from '../identity/rules.ts'
import { refuseOpenWeek } from './timesheets/open-weeks.ts'

// The client moves a project: publishes a draft, cancels it (with its contract, when nothing is
// funded or under review), or completes it once every installment is approved.

/** The project's contract, locked for the caller's transaction; null before a hire. */
export async function lockContract(trx: Trx, dialect: Dialect, projectId: number) {
  const c = await trx
    .selectFrom('contract')
    .select('id')
    .where('project_id', '=', projectId)
    .executeTakeFirst()
  return c ? (await lockRow(trx, dialect, 'contract', c.id))! : null
}

/** Pending proposals of a project that is taken or cancelled are closed (rejected) by the system. */
export async function closePending(
  trx: Trx,
  projectId: number,
  title: string,
  reason: 'taken' | 'cancelled',
  except?: number,
) {
  let q = trx
    .selectFrom('proposal')
    .select(['id', 'freelancer_id'])
    .where('project_id', '=', projectId)
    .where('status', '=', 'pending')
  if (except) q = q.where('id', '!=', except)
  for (const p of await q.execute()) {
    await transitionProposal(trx, {
      id: p.id,
      current: 'pending',
      action: 'close',
      actor: 'system',
      actorId: null,
      projectId,
      note: reason,
      set: { decided_at: nowIso() },
      effects: [
        notify(
          [p.freelancer_id],
          reason === 'taken' ? 'projectTaken' : 'projectCancelled',
          projectId,
          'Proposal',
          { title },
        ),
      ],
    })
  }
}

/** What every state change of the client's starts from: the locked project, its state and who asks. */
type Move = {
  trx: Trx
  row: ProjectRow
  base: { id: number; current: ProjectState; actor: 'client'; actorId: number; projectId: number }
}

async function cancelContract(trx: Trx, { row, base }: Move, contract: ContractRow, followers: number[]) {
  const states = (
    await trx.selectFrom('installment').select('status').where('contract_id', '=', contract.id).execute()
  ).map((i) => i.status)
  const inFlight = states.some((s) => (heldStates as readonly string[]).includes(s))
  // An hourly contract holds no installments: it may end whenever nothing is funded or in review.
  const unpaid = states.includes('pending') || contract.billing === 'hourly'
  const guard = () =>
    inFlight
      ? 'An installment is funded or under review; settle it before cancelling the contract'
      : unpaid
        ? null
        : 'Every installment is paid: complete the project instead'
  await transitionContract(trx, {
    id: contract.id,
    current: contract.status as ContractState,
    action: 'cancel',
    actor: 'client',
    actorId: base.actorId,
    projectId: base.id,
    guard,
    set: { ended_at: nowIso() },
  })
  return transitionProject(trx, {
    ...base,
    action: 'cancel_contract',
    guard,
    effects: [
      notify([contract.freelancer_id, ...followers], 'contractCancelled', base.id, 'ProjectStatus', {
        title: row.title,
      }),
    ],
  })
}

/**
 * A direct offer's project cancelled from its own page withdraws the offer still waiting for its
 * freelancer (decision 342), who is told as when the client withdraws it.
 */
async function withdrawOffer(trx: Trx, projectId: number, title: string) {
  const offer = await trx
    .updateTable('direct_offer')
    .set({ status: 'withdrawn', decided_at: nowIso() })
    .where('project_id', '=', projectId)
    .where('status', '=', 'pending')
    .returning('freelancer_id')
    .executeTakeFirst()
  return offer ? [notify([offer.freelancer_id], 'proposalOfferWithdrawn', projectId, 'Offer', { title })] : []
}

async function cancel(move: Move, index: ProjectSearchIndex, contract: ContractRow | null) {
  const { trx, row, base } = move
  const followers = await subscribers(trx, base.id)
  if (base.current === 'in_progress' && contract) return cancelContract(trx, move, contract, followers)
  const to = await transitionProject(trx, {
    ...base,
    action: 'cancel',
    effects: [
      ...(followers.length
        ? [notify(followers, 'projectCancelled', base.id, 'ProjectStatus', { title: row.title })]
        : []),
      ...(await withdrawOffer(trx, base.id, row.title)),
    ],
  })
  await closePending(trx, base.id, row.title, 'cancelled')
  await index.remove(trx, base.id)
  return to
}

async function complete({ trx, row, base }: Move, contract: ContractRow | null) {
  if (!contract)
    throw conflict(`The project is ${spoken(base.current)}; it cannot complete now`, base.current)
  if (contract.status === 'active' && contract.billing === 'hourly') await refuseOpenWeek(trx, contract.id)
  const followers = await subscribers(trx, base.id)
  const open = await trx
    .selectFrom('installment')
    .select('id')
    .where('contract_id', '=', contract.id)
    .where('status', 'not in', ['approved', 'released', 'removed'])
    .executeTakeFirst()
  const guard = () => (open ? 'Every installment must be approved before the project is completed' : null)
  await transitionContract(trx, {
    id: contract.id,
    current: contract.status as ContractState,
    action: 'complete',
    actor: 'client',
    actorId: base.actorId,
    projectId: base.id,
    guard,
    set: { ended_at: nowIso() },
  })
  const to = await transitionProject(trx, {
    ...base,
    action: 'complete',
    guard,
    effects: [
      notify([contract.freelancer_id, ...followers], 'projectCompleted', base.id, 'ProjectStatus', {
        title: row.title,
      }),
    ],
  })
  // Reputation: a completed contract is worth points to both sides (once per contract).
  for (const user of [contract.client_id, contract.freelancer_id]) {
    await trx
      .insertInto('wengaz_point_event')
      .values({
        user_id: user,
        reason: 'contract-completed',
        ref: String(contract.id),
        points: pointRules.contractCompleted,
        created_at: nowIso(),
      })
      .onConflict((oc) => oc.columns(['user_id', 'reason', 'ref']).doNothing())
      .execute()
  }
  return to
}

type ProjectStatusDeps = {
  db: DB
  dialect: Dialect
  index: ProjectSearchIndex
}

async function updateState(
  deps: ProjectStatusDeps,
  caller: Caller,
  id: number,
  state: 'open' | 'cancelled' | 'completed',
) {
  const { db, dialect, index } = deps
  await ownProject(db, caller, id)
  const status = await db.transaction().execute(async (trx) => {
    const row = (await lockRow(trx, dialect, 'project', id))!
    const current = row.status as ProjectState
    const move: Move = {
      trx,
      row,
      base: { id, current, actor: 'client', actorId: caller.userId, projectId: id },
    }
    if (state === 'open') {
      const to = await publishOrSubmit(trx, caller, current, row)
      await indexProject(index, trx, { ...row, status: to })
      return to
    }
    const contract = await lockContract(trx, dialect, id)
    return state === 'cancelled' ? cancel(move, index, contract) : complete(move, contract)
  })
  return { id, status }
}

export function createProjectStatus(deps: ProjectStatusDeps) {
  return {
    updateState: updateState.bind(null, deps),
  }
}
