import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { Db } from '../db/database.ts'
import type { Logger } from '../log.ts'
import { deliverDue, type Delivery, type OutboxHandler } from './outbox-delivery.ts'

export {
  backoffMs,
  OUTBOX_LOCK_MS,
  OUTBOX_MAX_ATTEMPTS,
  OUTBOX_SETTLE_MS,
  type OutboxHandler,
} from './outbox-delivery.ts'

// The transactional outbox. A service writes its side effects (an email, a notification, a hub
// message) as rows with `enqueue(trx, …)` inside the same transaction as the state change, so
// either both happen or neither. The worker hears of every commit that inserted outbox rows (the
// database's commit watch, db/commit-watch.ts), so a service cannot forget to wake it: delivery
// starts right after commit, and a poll picks up anything left (a crash, another instance, a
// delayed row). Several instances may share one database: a row is claimed by a conditional UPDATE
// of `locked_until`, so only one of them delivers it (outbox-delivery.ts).
//
// A delivery run never holds the event loop: on SQLite every query is synchronous, so the worker
// gives the loop a whole turn (loopTurn) before each row; requests wait at most one row's delivery
// behind it, not a backlog's (docs/decisions/096-outbox-yields-and-starts-after-listen.md).
//
// Topics are free strings; each module registers the handlers for its own topics.

type Executor = Kysely<Database> | Transaction<Database>

const iso = (ms: number) => new Date(ms).toISOString()

interface Enqueued {
  topic: string
  payload: unknown
  delayMs?: number
}

/** A pending row, due `delayMs` after `now`. */
const outboxRow = ({ topic, payload, delayMs }: Enqueued, now: number) => ({
  topic,
  payload: JSON.stringify(payload),
  status: 'pending' as const,
  attempts: 0,
  run_after: iso(now + (delayMs ?? 0)),
  created_at: iso(now),
})

export async function enqueue(
  db: Executor,
  topic: string,
  payload: unknown,
  options: { delayMs?: number } = {},
) {
  const row = await db
    .insertInto('outbox')
    .values(outboxRow({ topic, payload, delayMs: options.delayMs }, Date.now()))
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * A step's side effects of any topics written in one statement (a transition's bell and chat
 * event): each statement costs the sweep a Kysely build and compile on the server's thread, and
 * its garbage (decision 367).
 */
export async function enqueueEach(db: Executor, rows: readonly Enqueued[]) {
  if (!rows.length) return
  const now = Date.now()
  await db
    .insertInto('outbox')
    .values(rows.map((r) => outboxRow(r, now)))
    .execute()
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
  const { log } = options
  const batch = options.batch ?? 10
  const delivery: Delivery = { ...options, delivered: [], delivering: [] }
  let timer: NodeJS.Timeout | undefined
  let running: Promise<number> | null = null
  let again = false
  let stopped = false
  // Nothing is delivered on its own before start() (the server calls it once it listens); drain() works any time.
  let started = false
  let woken: NodeJS.Immediate | undefined
  let unwatch: (() => void) | undefined

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
          total += await deliverDue(delivery, batch, () => stopped)
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
    onDelivered: (listener) => void delivery.delivered.push(listener),
    onDelivering: (listener) => void delivery.delivering.push(listener),
    drain,
    start() {
      stopped = false
      started = true
      unwatch ??= options.onCommit?.((inserted) => {
        if (inserted.has('outbox')) kick()
      })
      timer ??= setInterval(kick, options.pollMs ?? 5_000)
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
