import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from './database.ts'
import { createTestDatabase, dialects, type TestDatabase } from '../../tests/integration/databases.ts'
import { enqueue } from '../jobs/outbox.ts'

// The commit watch on both databases: listeners hear, once a unit of work has committed, which
// tables it inserted into; a rollback tells nothing, and neither do reads, updates or deletes.
describe.each(dialects)('commit watch on %s', (dialect) => {
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

  it('tells of committed inserts only, after the commit, with the rows visible', async () => {
    const heard: string[][] = []
    const seenRows: number[] = []
    const stop = database.onCommit((tables) => {
      heard.push([...tables].sort())
      // When a listener hears, the commit is done: a new query sees the rows.
      void database.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => seenRows.push(Number(r.n)))
    })
    await database.db.transaction().execute(async (trx) => {
      await enqueue(trx, 't', { n: 1 })
      await enqueue(trx, 't', { n: 2 })
      expect(heard).toEqual([])
    })
    expect(heard).toEqual([['outbox']])

    await database.db
      .transaction()
      .execute(async (trx) => {
        await enqueue(trx, 't', { n: 'rolled back' })
        throw new Error('abort')
      })
      .catch(() => {})
    // Outside a transaction a statement is its own commit; reads, updates and deletes tell nothing.
    await enqueue(database.db, 't', { n: 3 })
    await database.db.selectFrom('outbox').selectAll().execute()
    await database.db.updateTable('outbox').set({ attempts: 1 }).where('topic', '=', 't').execute()
    await database.db.transaction().execute((trx) => trx.deleteFrom('outbox').where('payload', 'like', '%"n":3%').execute())
    expect(heard).toEqual([['outbox'], ['outbox']])
    stop()
    await enqueue(database.db, 't', { n: 4 })
    expect(heard).toHaveLength(2)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(seenRows).toEqual([2, 3])
  })
})
