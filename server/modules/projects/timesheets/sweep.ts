import type { Dialect } from '#server/db/migrations/helpers.ts'
import { loopTurn } from '#server/jobs/turn.ts'
import { DAY } from '../shared.ts'
import { TIMESHEET_REVIEW_DAYS } from '../rules.ts'
import { lockRow } from '../transition.ts'
import { approveLocked, chargeWeek, lockedWeek, type ReviewDeps } from './review.ts'

// The hourly sweep (decisions 324, 341, 344, 354): weeks submitted more than TIMESHEET_REVIEW_DAYS
// ago without an answer are approved by the system, made installments and charged. Safe on several
// instances: each approval locks the contract and the week and checks the state again, and the
// week's installment is unique.

type Due = { id: number; contract_id: number }

// A whole turn of the event loop follows each step: on SQLite a query runs on this thread, so a
// job that only awaits queries would let no request in until it ended (decisions 341, 363).

/** The system approves one week of a contract still unanswered since before `submittedBefore`; a second instance finds it moved. */
async function autoApprove(deps: ReviewDeps, due: Due, submittedBefore: string) {
  const send = await deps.db.transaction().execute(async (trx) => {
    const contract = (await lockRow(trx, deps.dialect, 'contract', due.contract_id))!
    const week = await lockedWeek(deps, trx, contract, due.id)
    if (contract.status !== 'active' || week.status !== 'submitted' || !week.submitted_at) return null
    if (new Date(week.submitted_at).toISOString() >= submittedBefore) return null
    return approveLocked(deps, trx, contract, week, null)
  })
  if (!send) return false
  await loopTurn()
  await chargeWeek(deps, send)
  return true
}

export const SWEEP_BATCH = 500

/**
 * How many contracts are charged at once. On PostgreSQL a week mostly waits on its round trips
 * (decision 344: wall time three times the CPU), so a few contracts share the pool (10
 * connections; the rest stay free for requests). On SQLite every query runs on this thread and
 * the connection is one: a second contract would only wait.
 */
export const sweepLanes = (dialect: Dialect) => (dialect === 'postgres' ? 4 : 1)

/**
 * One run takes every week due, read `batch` at a time in id order (a week that fails is passed,
 * not read again). A contract's weeks are approved one after another in that order (each one's
 * installment follows the last), up to `lanes` contracts at once; a turn of the event loop
 * follows each approval and each charge, so a request waits at most one step of each lane.
 */
export async function sweepWeeks(
  deps: ReviewDeps,
  now = new Date(),
  batch = SWEEP_BATCH,
  lanes = sweepLanes(deps.dialect),
) {
  const cutoff = new Date(now.getTime() - TIMESHEET_REVIEW_DAYS * DAY).toISOString()
  let approved = 0
  // Each contract's weeks not yet taken, in a group a lane works through; a later batch's weeks
  // of a contract whose group is still open join it, so they never run beside it.
  const open = new Map<number, Due[]>()
  const waiting: Due[][] = []
  let hungry: (() => void) | undefined
  const lane = async () => {
    for (let group = waiting.shift(); group; group = waiting.shift()) {
      if (waiting.length < lanes) hungry?.()
      for (let k = 0; k < group.length; k++) {
        if (await autoApprove(deps, group[k]!, cutoff).catch(() => false)) approved++
        await loopTurn()
      }
      open.delete(group[0]!.contract_id)
    }
  }
  const running = new Set<Promise<void>>()
  for (let after = 0; ;) {
    const due = await deps.db
      .selectFrom('timesheet_week')
      .select(['id', 'contract_id'])
      .where('status', '=', 'submitted')
      .where('submitted_at', '<', cutoff)
      .where('id', '>', after)
      .orderBy('id')
      .limit(batch)
      .execute()
    if (!due.length) break
    after = due.at(-1)!.id
    for (const week of due) {
      const group = open.get(week.contract_id)
      if (group) group.push(week)
      else {
        open.set(week.contract_id, [week])
        waiting.push(open.get(week.contract_id)!)
      }
    }
    while (running.size < lanes && waiting.length) {
      const started: Promise<void> = lane().finally(() => running.delete(started))
      running.add(started)
    }
    // The next batch is read when the lanes are about to run out of contracts.
    while (waiting.length >= lanes) await new Promise<void>((resolve) => (hungry = resolve))
  }
  await Promise.all(running)
  return { approved }
}
