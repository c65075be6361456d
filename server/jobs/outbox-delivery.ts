import type { ExpressionBuilder, Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { Logger } from '../log.ts'
import { loopTurn } from './turn.ts'

// Delivering outbox rows: claim a batch, run each row's topic handler, mark the delivered ones done,
// or schedule a retry (dead after OUTBOX_MAX_ATTEMPTS). The worker (outbox.ts) decides when this runs.

export type OutboxHandler = (
  payload: any,
  row: { id: number; attempts: number; topic: string },
) => Promise<void>

export const OUTBOX_MAX_ATTEMPTS = 8
/** How long a claim holds its rows: a row claimed by a process that died is delivered after it. */
export const OUTBOX_LOCK_MS = 60_000
/** How long a claim's rows may wait for their done mark: well inside the lock (decision 355). */
export const OUTBOX_SETTLE_MS = 10_000

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
  /** How long a claim runs before its delivered rows are marked and the rest given back (OUTBOX_SETTLE_MS; tests shorten it). */
  settleMs?: number
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
    .set((eb) => ({ locked_until: iso(now + OUTBOX_LOCK_MS), attempts: eb('attempts', '+', 1) }))
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

/** Marks rows delivered done and gives back rows claimed but not started, as they were; one UPDATE each. */
async function settle(db: Kysely<Database>, done: number[], unstarted: number[]) {
  if (done.length)
    await db
      .updateTable('outbox')
      .set({ status: 'done', done_at: iso(Date.now()), locked_until: null, last_error: null })
      .where('id', 'in', done)
      .execute()
  if (unstarted.length)
    await db
      .updateTable('outbox')
      .set((eb) => ({ locked_until: null, attempts: eb('attempts', '-', 1) }))
      .where('id', 'in', unstarted)
      .execute()
}

/**
 * One claim's rows while they are delivered: the delivered ones wait for a single done mark, the
 * ones not started may be given back. `release()` writes both; afterwards the claim holds only the
 * row in progress, whose mark the next `release()` writes. The writes run one after another.
 */
function holdClaim(db: Kysely<Database>, rows: Row[]) {
  const unstarted = [...rows]
  const done: number[] = []
  let released = false
  let gaveBack = false
  let writes: Promise<void> = Promise.resolve()
  return {
    /** The next row to deliver; none once the claim is released. */
    take: () => (released ? undefined : unstarted.shift()),
    delivered: (id: number) => void done.push(id),
    /** Whether rows were given back unstarted (the worker claims again for them). */
    gaveBack: () => gaveBack,
    release() {
      released = true
      const marks = done.splice(0)
      const back = unstarted.splice(0).map((row) => row.id)
      gaveBack ||= back.length > 0
      // A failed earlier write does not stop this one: its rows are delivered again after their lock.
      writes = writes.catch(() => {}).then(() => settle(db, marks, back))
      return writes
    },
  }
}

type Claim = ReturnType<typeof holdClaim>

/**
 * Delivers a claim's rows in order and marks the delivered ones done together at its end. A claim
 * still running after `settleMs` is released then, during a slow handler too: the rows delivered so
 * far are marked done and those not started are given back, so none of them waits past its lock to
 * be claimed and delivered again (decision 355). Answers how many it delivered.
 */
async function deliverClaim(delivery: Delivery, claim: Claim, stopped: () => boolean) {
  let count = 0
  const early = setTimeout(
    () =>
      void claim
        .release()
        .catch((error) =>
          delivery.log.error({ err: error }, 'outbox done marks failed; the rows will be redelivered'),
        ),
    delivery.settleMs ?? OUTBOX_SETTLE_MS,
  )
  try {
    for (;;) {
      // A turn of the event loop before each row: requests that came meanwhile go first.
      await loopTurn()
      const row = stopped() ? undefined : claim.take()
      if (!row) return count
      if (await deliverOne(delivery, row)) {
        claim.delivered(row.id)
        count++
      }
    }
  } finally {
    clearTimeout(early)
    await claim.release()
  }
}

/** Delivers every due row, `batch` per claim, until none is left or `stopped()`; answers how many it delivered. */
export async function deliverDue(delivery: Delivery, batch: number, stopped: () => boolean) {
  let count = 0
  for (;;) {
    const due = await claimDue(delivery.db, batch)
    if (!due.length) return count
    const claim = holdClaim(delivery.db, due)
    count += await deliverClaim(delivery, claim, stopped)
    if ((due.length < batch && !claim.gaveBack()) || stopped()) return count
    await loopTurn()
  }
}
