import { describe, expect, it, vi } from 'vitest'
import { createLogger } from '../log.ts'
import { dialects, useTestDatabase } from '../../tests/integration/databases.ts'
import { backoffMs, createOutboxWorker, enqueue, OUTBOX_MAX_ATTEMPTS } from './outbox.ts'
import { deliverDue } from './outbox-delivery.ts'

// The outbox on both databases: rows written in the caller's transaction, delivered after commit,
// retried with backoff, given up after the last attempt, and never delivered twice; the database's
// commit watch tells of committed inserts only, and wakes a started worker (db/commit-watch.ts).
describe.each(dialects)('outbox on %s', (dialect) => {
  const s = useTestDatabase(dialect, undefined, { open: { seed: false } })

  it('delivers only committed rows, once, and retries a failure later', async () => {
    const seen: string[] = []
    let fail = true
    const worker = createOutboxWorker({
      db: s.database.db,
      log: createLogger('silent'),
      handlers: {
        t: async (p: { n: string }) => {
          if (p.n === 'flaky' && fail) throw new Error('smtp down')
          seen.push(p.n)
        },
      },
    })
    // Listeners hear of each delivery, not of failures (the page cache forgets kept pages then).
    let deliveries = 0
    worker.onDelivered(() => deliveries++)
    await s.database.db.transaction().execute(async (trx) => {
      await enqueue(trx, 't', { n: 'ok' })
      await enqueue(trx, 't', { n: 'flaky' })
    })
    await s.database.db
      .transaction()
      .execute(async (trx) => {
        await enqueue(trx, 't', { n: 'rolled-back' })
        throw new Error('abort')
      })
      .catch(() => {})
    await Promise.all([worker.drain(), worker.drain()])
    expect(seen).toEqual(['ok'])
    expect(deliveries).toBe(1)
    const flaky = await s.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('payload', 'like', '%flaky%')
      .executeTakeFirstOrThrow()
    expect(flaky).toMatchObject({ status: 'pending', attempts: 1, last_error: 'smtp down' })
    expect(Date.parse(flaky.run_after)).toBeGreaterThan(Date.now() + backoffMs(1) - 2000)

    fail = false
    await s.database.db
      .updateTable('outbox')
      .set({ run_after: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', flaky.id)
      .execute()
    await worker.drain()
    expect(seen).toEqual(['ok', 'flaky'])
    await worker.drain()
    expect(seen).toEqual(['ok', 'flaky'])
    expect(deliveries).toBe(2)

    await enqueue(s.database.db, 'unknown-topic', {})
    for (let i = 0; i < OUTBOX_MAX_ATTEMPTS; i++) {
      await s.database.db
        .updateTable('outbox')
        .set({ run_after: new Date(Date.now() - 1000).toISOString() })
        .where('topic', '=', 'unknown-topic')
        .execute()
      await worker.drain()
    }
    const dead = await s.database.db
      .selectFrom('outbox')
      .select(['status', 'attempts'])
      .where('topic', '=', 'unknown-topic')
      .executeTakeFirstOrThrow()
    expect(dead).toEqual({ status: 'dead', attempts: OUTBOX_MAX_ATTEMPTS })
    await worker.stop()
  })

  it('the commit watch tells of committed inserts only, after the commit, with the rows visible', async () => {
    const heard: string[][] = []
    const seenRows: number[] = []
    const count = async () =>
      Number(
        (
          await s.database.db
            .selectFrom('outbox')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const before = await count()
    const stop = s.database.onCommit((tables) => {
      heard.push([...tables].sort())
      // When a listener hears, the commit is done: a new query sees the rows.
      void count().then((n) => seenRows.push(n - before))
    })
    await s.database.db.transaction().execute(async (trx) => {
      await enqueue(trx, 'watch', { n: 1 })
      await enqueue(trx, 'watch', { n: 2 })
      expect(heard).toEqual([])
    })
    expect(heard).toEqual([['outbox']])

    await s.database.db
      .transaction()
      .execute(async (trx) => {
        await enqueue(trx, 'watch', { n: 'rolled back' })
        throw new Error('abort')
      })
      .catch(() => {})
    // Outside a transaction a statement is its own commit; reads, updates and deletes tell nothing.
    await enqueue(s.database.db, 'watch', { n: 3 })
    await s.database.db.selectFrom('outbox').selectAll().execute()
    await s.database.db.updateTable('outbox').set({ attempts: 1 }).where('topic', '=', 'watch').execute()
    await s.database.db
      .transaction()
      .execute((trx) => trx.deleteFrom('outbox').where('payload', 'like', '%"n":3%').execute())
    expect(heard).toEqual([['outbox'], ['outbox']])
    stop()
    await enqueue(s.database.db, 'watch', { n: 4 })
    expect(heard).toHaveLength(2)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(seenRows).toEqual([2, 3])
  })

  it('a started worker wakes on each commit that enqueued, and not before it is started', async () => {
    const seen: string[] = []
    const worker = createOutboxWorker({
      db: s.database.db,
      onCommit: s.database.onCommit,
      log: createLogger('silent'),
      handlers: { wake: async (p: { n: string }) => void seen.push(p.n) },
      pollMs: 60_000,
    })
    const settle = () => new Promise((resolve) => setTimeout(resolve, 100))
    await enqueue(s.database.db, 'wake', { n: 'before start' })
    await settle()
    expect(seen).toEqual([])
    worker.start()
    await settle()
    expect(seen).toEqual(['before start'])
    await s.database.db.transaction().execute(async (trx) => {
      await enqueue(trx, 'wake', { n: 'committed' })
      await settle()
      expect(seen).toEqual(['before start'])
    })
    await settle()
    expect(seen).toEqual(['before start', 'committed'])
    await worker.stop()
    await enqueue(s.database.db, 'wake', { n: 'after stop' })
    await settle()
    expect(seen).toEqual(['before start', 'committed'])
  })

  // Each write outside a transaction is a commit, which on SQLite waits for the disk with the event
  // loop (decision 345): a batch is claimed with one UPDATE and its delivered rows marked with one.
  it('claims a batch with one write and marks it done with one; a stopped run gives back the rest', async () => {
    let updates = 0
    const db = s.database.db.withPlugin({
      transformQuery: (args) => {
        if (args.node.kind === 'UpdateQueryNode') updates++
        return args.node
      },
      transformResult: async (args) => args.result,
    })
    const seen: number[] = []
    const handlers = { batch: async (p: { n: number }) => void seen.push(p.n) }
    const delivery = { db, log: createLogger('silent'), handlers, delivered: [], delivering: [] }
    // The earlier tests' rows (unknown topics, a stopped worker's) are not this batch's.
    await db.deleteFrom('outbox').execute()
    for (let n = 1; n <= 6; n++) await enqueue(db, 'batch', { n })
    expect(await deliverDue(delivery, 4, () => seen.length >= 2)).toBe(2)
    expect(seen).toEqual([1, 2])
    // The claim, the two rows done, the two it did not reach given back.
    expect(updates).toBe(3)
    const rows = await db
      .selectFrom('outbox')
      .select(['status', 'attempts', 'locked_until'])
      .orderBy('id')
      .execute()
    expect(rows.map((r) => [r.status, r.attempts, r.locked_until])).toEqual([
      ['done', 1, null],
      ['done', 1, null],
      ['pending', 0, null],
      ['pending', 0, null],
      ['pending', 0, null],
      ['pending', 0, null],
    ])
    updates = 0
    expect(await deliverDue(delivery, 10, () => false)).toBe(4)
    expect(seen).toEqual([1, 2, 3, 4, 5, 6])
    expect(updates).toBe(2)
  })

  // A claim's lock is 60 s; before decision 355 a batch marked its rows done only at its end, so a
  // slow row kept the rows delivered before it unmarked until another worker claimed them again.
  it('a slow row in a batch: the rows delivered before it are done and the rest given back, before the lock expires', async () => {
    const db = s.database.db
    await db.deleteFrom('outbox').execute()
    for (let n = 1; n <= 5; n++) await enqueue(db, 'slow', { n })
    const seen = { a: [] as number[], b: [] as number[] }
    let inSlowRow = false
    let finishSlowRow = () => {}
    const slowRowHeld = new Promise<void>((resolve) => (finishSlowRow = resolve))
    const worker = (name: 'a' | 'b', slowAt: number) => ({
      db,
      log: createLogger('silent'),
      delivered: [],
      delivering: [],
      settleMs: 50,
      handlers: {
        slow: async (p: { n: number }) => {
          if (p.n === slowAt) {
            inSlowRow = true
            await slowRowHeld
          }
          seen[name].push(p.n)
        },
      },
    })
    const state = () =>
      db
        .selectFrom('outbox')
        .select(['status', 'locked_until'])
        .orderBy('id')
        .execute()
        .then((rows) => rows.map((r) => `${r.status}${r.locked_until ? ' locked' : ''}`))
    const a = deliverDue(worker('a', 3), 10, () => false)
    try {
      await vi.waitFor(
        async () => {
          expect(inSlowRow).toBe(true)
          expect(await state()).toEqual(['done', 'done', 'pending locked', 'pending', 'pending'])
        },
        { timeout: 10_000, interval: 20 },
      )
      // Another worker takes the rows given back now, and once the slow row's lock expires, that row
      // (at least once: its handler outlived the lock); never the rows delivered before it.
      expect(await deliverDue(worker('b', 0), 10, () => false)).toBe(2)
      await db
        .updateTable('outbox')
        .set({ locked_until: new Date(0).toISOString() })
        .where('id', '>', 0)
        .where('locked_until', 'is not', null)
        .execute()
      expect(await deliverDue(worker('b', 0), 10, () => false)).toBe(1)
    } finally {
      finishSlowRow()
    }
    expect(await a).toBe(3)
    expect(seen).toEqual({ a: [1, 2, 3], b: [4, 5, 3] })
    expect(await state()).toEqual(['done', 'done', 'done', 'done', 'done'])
  })
})
