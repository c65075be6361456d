import { setImmediate as nextTurn } from 'node:timers/promises'
import type { ExpressionBuilder, Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { Logger } from '../log.ts'

// Delivering outbox rows: claim a batch, run each row's topic handler, mark the delivered ones done,
// or schedule a retry (dead after OUTBOX_MAX_ATTEMPTS). The worker (outbox.ts) decides when this runs.

export type OutboxHandler = (
  payload: any,
  row: { id: number; attempts: number; topic: string },
) => Promise<void>

export const OUTBOX_MAX_ATTEMPTS = 8
const LOCK_MS = 60_000

const iso = (ms: number) => new Date(ms).toISOString()

/** Seconds to wait before attempt n+1: 5 s, 20 s, 80 s … at most an hour. */
export function backoffMs(attempts: number) {
  return Math.min(3_600_000, 5_000 * 4 ** Math.max(0, attempts - 1))
}

export interface Delivery {
  db: Kysely<Database>
  log: Logger
  handlers: Record<string, OutboxHandler>
  /** Called after each delivery. */
  delivered: Array<() => void>
  /** Called before each delivery's handler runs; the function each answers is called once it is over. */
  delivering: Array<() => () => void>
}

/** A claimed row; `attempts` counts this delivery. */
type Row = { id: number; topic: string; payload: string; attempts: number }

/**
 * Claims up to `batch` due rows in one UPDATE: the conditions are checked again on each row, so of
 * two instances only the one whose UPDATE still sees a row unlocked gets it. One statement for the
 * batch, not one per row: on SQLite each write outside a transaction is a commit, and a commit with
 * synchronous = FULL waits for the disk while the event loop waits for it (decision 345).
 */
async function claimDue(db: Kysely<Database>, batch: number): Promise<Row[]> {
  const now = Date.now()
  const unlocked = (eb: ExpressionBuilder<Database, 'outbox'>) =>
    eb.and([
      eb('status', '=', 'pending'),
      eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso(now))]),
    ])
  const rows = await db
    .updateTable('outbox')
    .set((eb) => ({ locked_until: iso(now + LOCK_MS), attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('outbox')
        .select('id')
        .where(unlocked)
        .where('run_after', '<=', iso(now))
        .orderBy('id')
        .limit(batch),
    )
    .where(unlocked)
    .returning(['id', 'topic', 'payload', 'attempts'])
    .execute()
  return rows.sort((a, b) => a.id - b.id)
}

async function failed(delivery: Delivery, row: Row, error: unknown) {
  const dead = row.attempts >= OUTBOX_MAX_ATTEMPTS
  delivery.log.warn(
    { err: error, outboxId: row.id, topic: row.topic, attempts: row.attempts, dead },
    dead ? 'outbox delivery failed for good' : 'outbox delivery failed; will retry',
  )
  await delivery.db
    .updateTable('outbox')
    .set({
      status: dead ? 'dead' : 'pending',
      locked_until: null,
      last_error: String((error as Error)?.message ?? error).slice(0, 1000),
      run_after: iso(Date.now() + backoffMs(row.attempts)),
    })
    .where('id', '=', row.id)
    .execute()
}

/** Runs a claimed row's handler; answers whether it was delivered (a failure is recorded for a retry). */
async function deliverOne(delivery: Delivery, row: Row) {
  const handler = delivery.handlers[row.topic]
  const over = delivery.delivering.map((listener) => listener())
  try {
    if (!handler) throw new Error(`no outbox handler for topic ${row.topic}`)
    await handler(JSON.parse(row.payload), { id: row.id, attempts: row.attempts, topic: row.topic })
    for (const listener of delivery.delivered) listener()
    return true
  } catch (error) {
    await failed(delivery, row, error)
    return false
  } finally {
    for (const end of over) end()
  }
}

/**
 * Marks a batch's delivered rows done in one UPDATE, and gives back the rows it claimed but did not
 * reach (the worker was stopped) as they were. A crash before this redelivers the batch's rows once
 * their lock expires: delivery is at least once, as it was with a mark per row.
 */
async function settle(db: Kysely<Database>, done: number[], unreached: number[]) {
  if (done.length)
    await db
      .updateTable('outbox')
      .set({ status: 'done', done_at: iso(Date.now()), locked_until: null, last_error: null })
      .where('id', 'in', done)
      .execute()
  if (unreached.length)
    await db
      .updateTable('outbox')
      .set((eb) => ({ locked_until: null, attempts: eb('attempts', '-', 1) }))
      .where('id', 'in', unreached)
      .execute()
}

/** Delivers every due row, `batch` per claim, until none is left or `stopped()`; answers how many it delivered. */
export async function deliverDue(delivery: Delivery, batch: number, stopped: () => boolean) {
  let count = 0
  for (;;) {
    const due = await claimDue(delivery.db, batch)
    const done: number[] = []
    let reached = 0
    try {
      for (const row of due) {
        // A turn of the event loop before each row: requests that came meanwhile go first.
        await nextTurn()
        if (stopped()) break
        reached++
        if (await deliverOne(delivery, row)) done.push(row.id)
      }
    } finally {
      await settle(
        delivery.db,
        done,
        due.slice(reached).map((row) => row.id),
      )
    }
    count += done.length
    if (due.length < batch || stopped()) return count
    await nextTurn()
  }
}
