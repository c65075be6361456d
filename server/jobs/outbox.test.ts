import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../db/database.ts'
import { createLogger } from '../log.ts'
import { createTestDatabase, dialects, type TestDatabase } from '../../tests/integration/databases.ts'
import { backoffMs, createOutboxWorker, enqueue, OUTBOX_MAX_ATTEMPTS } from './outbox.ts'

// The outbox on both databases: rows written in the caller's transaction, delivered after commit,
// retried with backoff, given up after the last attempt, and never delivered twice.
describe.each(dialects)('outbox on %s', (dialect) => {
  let testDb: TestDatabase
  let database: Db
  beforeAll(async () => {
    testDb = await createTestDatabase(dialect)
    database = await testDb.open({ seed: false })
  })
  afterAll(async () => {
    await database?.close()
    await testDb?.drop()
  })

  it('delivers only committed rows, once, and retries a failure later', async () => {
    const seen: string[] = []
    let fail = true
    const worker = createOutboxWorker({
      db: database.db,
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
    await database.db.transaction().execute(async (trx) => {
      await enqueue(trx, 't', { n: 'ok' })
      await enqueue(trx, 't', { n: 'flaky' })
    })
    await database.db
      .transaction()
      .execute(async (trx) => {
        await enqueue(trx, 't', { n: 'rolled-back' })
        throw new Error('abort')
      })
      .catch(() => {})
    await Promise.all([worker.drain(), worker.drain()])
    expect(seen).toEqual(['ok'])
    expect(deliveries).toBe(1)
    const flaky = await database.db.selectFrom('outbox').selectAll().where('payload', 'like', '%flaky%').executeTakeFirstOrThrow()
    expect(flaky).toMatchObject({ status: 'pending', attempts: 1, last_error: 'smtp down' })
    expect(Date.parse(flaky.run_after)).toBeGreaterThan(Date.now() + backoffMs(1) - 2000)

    fail = false
    await database.db.updateTable('outbox').set({ run_after: new Date(Date.now() - 1000).toISOString() }).where('id', '=', flaky.id).execute()
    await worker.drain()
    expect(seen).toEqual(['ok', 'flaky'])
    await worker.drain()
    expect(seen).toEqual(['ok', 'flaky'])
    expect(deliveries).toBe(2)

    await enqueue(database.db, 'unknown-topic', {})
    for (let i = 0; i < OUTBOX_MAX_ATTEMPTS; i++) {
      await database.db.updateTable('outbox').set({ run_after: new Date(Date.now() - 1000).toISOString() }).where('topic', '=', 'unknown-topic').execute()
      await worker.drain()
    }
    const dead = await database.db.selectFrom('outbox').select(['status', 'attempts']).where('topic', '=', 'unknown-topic').executeTakeFirstOrThrow()
    expect(dead).toEqual({ status: 'dead', attempts: OUTBOX_MAX_ATTEMPTS })
    await worker.stop()
  })
})
