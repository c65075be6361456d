import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { Logger } from '../log.ts'

// Delivering outbox rows: claim one, run its topic's handler, mark it done, or schedule a retry
// (dead after OUTBOX_MAX_ATTEMPTS). The worker (outbox.ts) decides when this runs.

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

type Row = { id: number; topic: string; payload: string; attempts: number }

/** Claim: only the instance whose UPDATE matches the lock it saw gets to deliver. */
async function claim(db: Kysely<Database>, row: Row) {
  const now = Date.now()
  const claimed = await db
    .updateTable('outbox')
    .set({ locked_until: iso(now + LOCK_MS), attempts: row.attempts + 1 })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('attempts', '=', row.attempts)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso(now))]))
    .executeTakeFirst()
  return Number(claimed.numUpdatedRows) === 1
}

async function failed(delivery: Delivery, row: Row, error: unknown) {
  const attempts = row.attempts + 1
  const dead = attempts >= OUTBOX_MAX_ATTEMPTS
  delivery.log.warn(
    { err: error, outboxId: row.id, topic: row.topic, attempts, dead },
    dead ? 'outbox delivery failed for good' : 'outbox delivery failed; will retry',
  )
  await delivery.db
    .updateTable('outbox')
    .set({
      status: dead ? 'dead' : 'pending',
      locked_until: null,
      last_error: String((error as Error)?.message ?? error).slice(0, 1000),
      run_after: iso(Date.now() + backoffMs(attempts)),
    })
    .where('id', '=', row.id)
    .execute()
}

/** Delivers one row unless another instance claimed it first; answers whether this one tried. */
async function deliverOne(delivery: Delivery, row: Row) {
  if (!(await claim(delivery.db, row))) return false
  const handler = delivery.handlers[row.topic]
  const over = delivery.delivering.map((listener) => listener())
  try {
    if (!handler) throw new Error(`no outbox handler for topic ${row.topic}`)
    await handler(JSON.parse(row.payload), { id: row.id, attempts: row.attempts + 1, topic: row.topic })
    await delivery.db
      .updateTable('outbox')
      .set({ status: 'done', done_at: iso(Date.now()), locked_until: null, last_error: null })
      .where('id', '=', row.id)
      .execute()
    for (const listener of delivery.delivered) listener()
  } catch (error) {
    await failed(delivery, row, error)
  } finally {
    for (const end of over) end()
  }
  return true
}

/** Delivers every due row, `batch` per query, until none is left or `stopped()`; answers how many it delivered. */
export async function deliverDue(delivery: Delivery, batch: number, stopped: () => boolean) {
  let count = 0
  for (;;) {
    const now = iso(Date.now())
    const due = await delivery.db
      .selectFrom('outbox')
      .select(['id', 'topic', 'payload', 'attempts'])
      .where('status', '=', 'pending')
      .where('run_after', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .orderBy('id')
      .limit(batch)
      .execute()
    for (const row of due) {
      // A turn of the event loop before each row: requests that came meanwhile go first.
      await nextTurn()
      if (stopped()) return count
      if (await deliverOne(delivery, row)) count++
    }
    if (due.length < batch || stopped()) return count
    await nextTurn()
  }
}
