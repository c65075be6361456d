import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { Db } from '../db/database.ts'
import type { Logger } from '../log.ts'

// The transactional outbox. A service writes its side effects (an email, a notification, a hub
// message) as rows with `enqueue(trx, …)` inside the same transaction as the state change, so
// either both happen or neither. The worker hears of every commit that inserted outbox rows (the
// database's commit watch, db/commit-watch.ts), so a service cannot forget to wake it: delivery
// starts right after commit, and a poll picks up anything left (a crash, another instance, a
// delayed row). Several instances may share one database: a row is claimed by a conditional UPDATE
// of `locked_until`, so only one of them delivers it.
//
// A delivery run never holds the event loop: on SQLite every query is synchronous, so the worker
// gives the loop a turn (setImmediate) before each row; requests wait at most one row's delivery
// behind it, not a backlog's (docs/decisions/096-outbox-yields-and-starts-after-listen.md).
//
// Topics are free strings; each module registers the handlers for its own topics.

type Executor = Kysely<Database> | Transaction<Database>
export type OutboxHandler = (
  payload: any,
  row: { id: number; attempts: number; topic: string },
) => Promise<void>

export const OUTBOX_MAX_ATTEMPTS = 8
const LOCK_MS = 60_000

const iso = (ms: number) => new Date(ms).toISOString()

export async function enqueue(
  db: Executor,
  topic: string,
  payload: unknown,
  options: { delayMs?: number } = {},
) {
  const now = Date.now()
  const row = await db
    .insertInto('outbox')
    .values({
      topic,
      payload: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      run_after: iso(now + (options.delayMs ?? 0)),
      created_at: iso(now),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Seconds to wait before attempt n+1: 5 s, 20 s, 80 s … at most an hour. */
export function backoffMs(attempts: number) {
  return Math.min(3_600_000, 5_000 * 4 ** Math.max(0, attempts - 1))
}

export interface OutboxWorker {
  /** Deliver what is due soon, on the next turn of the event loop (once started; commits that enqueue call it). */
  kick(): void
  /** Deliver every due row, resolving when done (tests and shutdown use it). */
  drain(): Promise<number>
  /** Starts the poll and the wake on commit, and delivers what is pending (call it once the server listens). */
  start(): void
  stop(): Promise<void>
  /** Calls `listener` after each delivery (what a handler wrote may show on pages: the page cache forgets them). */
  onDelivered(listener: () => void): void
  /** Calls `listener` before each delivery's handler runs and the function it answers once it is over (the page cache holds its kept data meanwhile). */
  onDelivering(listener: () => () => void): void
}

export interface OutboxOptions {
  db: Kysely<Database>
  /** The database's commit watch (Db['onCommit']): a commit that inserted outbox rows wakes the worker. */
  onCommit?: Db['onCommit']
  log: Logger
  handlers: Record<string, OutboxHandler>
  /** The safety net's interval; delivery does not wait for it. */
  pollMs?: number
  /** Rows read per query. */
  batch?: number
}

export function createOutboxWorker(options: OutboxOptions): OutboxWorker {
  const { db, log, handlers } = options
  const pollMs = options.pollMs ?? 5_000
  const batch = options.batch ?? 10
  let timer: NodeJS.Timeout | undefined
  let running: Promise<number> | null = null
  let again = false
  let stopped = false
  // Nothing is delivered on its own before start() (the server calls it once it listens); drain() works any time.
  let started = false
  let woken: NodeJS.Immediate | undefined
  let unwatch: (() => void) | undefined
  const delivered: Array<() => void> = []
  const delivering: Array<() => () => void> = []

  async function deliverOne(row: { id: number; topic: string; payload: string; attempts: number }) {
    const now = Date.now()
    // Claim: only the instance whose UPDATE matches the lock it saw gets to deliver.
    const claimed = await db
      .updateTable('outbox')
      .set({ locked_until: iso(now + LOCK_MS), attempts: row.attempts + 1 })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('attempts', '=', row.attempts)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso(now))]))
      .executeTakeFirst()
    if (Number(claimed.numUpdatedRows) !== 1) return false
    const handler = handlers[row.topic]
    const over = delivering.map((listener) => listener())
    try {
      if (!handler) throw new Error(`no outbox handler for topic ${row.topic}`)
      await handler(JSON.parse(row.payload), { id: row.id, attempts: row.attempts + 1, topic: row.topic })
      await db
        .updateTable('outbox')
        .set({ status: 'done', done_at: iso(Date.now()), locked_until: null, last_error: null })
        .where('id', '=', row.id)
        .execute()
      for (const listener of delivered) listener()
    } catch (error) {
      const attempts = row.attempts + 1
      const dead = attempts >= OUTBOX_MAX_ATTEMPTS
      log.warn(
        { err: error, outboxId: row.id, topic: row.topic, attempts, dead },
        dead ? 'outbox delivery failed for good' : 'outbox delivery failed; will retry',
      )
      await db
        .updateTable('outbox')
        .set({
          status: dead ? 'dead' : 'pending',
          locked_until: null,
          last_error: String((error as Error)?.message ?? error).slice(0, 1000),
          run_after: iso(Date.now() + backoffMs(attempts)),
        })
        .where('id', '=', row.id)
        .execute()
    } finally {
      for (const end of over) end()
    }
    return true
  }

  async function runOnce() {
    let delivered = 0
    for (;;) {
      const now = iso(Date.now())
      const due = await db
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
        if (stopped) return delivered
        if (await deliverOne(row)) delivered++
      }
      if (due.length < batch || stopped) return delivered
      await nextTurn()
    }
  }

  function drain(): Promise<number> {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      let total = 0
      do {
        again = false
        try {
          total += await runOnce()
        } catch (error) {
          if (!stopped) log.error({ err: error }, 'outbox worker failed')
        }
      } while (again && !stopped)
      running = null
      return total
    })()
    return running
  }

  // Many commits in one turn wake one run; the committing request answers before it starts.
  function kick() {
    if (!started || woken) return
    woken = setImmediate(() => {
      woken = undefined
      if (started) void drain()
    })
  }

  return {
    kick,
    onDelivered(listener) {
      delivered.push(listener)
    },
    onDelivering(listener) {
      delivering.push(listener)
    },
    drain,
    start() {
      stopped = false
      started = true
      unwatch ??= options.onCommit?.((inserted) => {
        if (inserted.has('outbox')) kick()
      })
      timer ??= setInterval(kick, pollMs)
      timer.unref()
      kick()
    },
    async stop() {
      stopped = true
      started = false
      unwatch?.()
      unwatch = undefined
      if (woken) clearImmediate(woken)
      woken = undefined
      if (timer) clearInterval(timer)
      timer = undefined
      await running?.catch(() => {})
    },
  }
}
