import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, dialects, type TestDatabase } from '../../tests/integration/databases.ts'
import type { Db } from './database.ts'
import { prepared } from './prepared.ts'

// A prepared query (decision 286) must answer what the same query built anew answers, for every
// value and every length of a list, on both databases; a builder that does not pass an argument
// into the query is refused, not run with a placeholder.
describe.each(dialects)('a prepared query on %s', (dialect) => {
  let testDb: TestDatabase
  let database: Db
  beforeAll(async () => {
    testDb = await createTestDatabase(dialect)
    database = await testDb.open()
  })
  afterAll(async () => {
    await database.close()
    await testDb.drop()
  })

  it('answers as the query built anew, for any values and any length of a list', async () => {
    const { db } = database
    const query = (k: typeof db, ids: number[], name: string, limit: number) =>
      k
        .selectFrom('category')
        .select(['id', 'name_en'])
        .where('id', 'in', ids)
        .where('name_en', '!=', name)
        .orderBy('id')
        .limit(limit)
    const built = (ids: number[], name: string, limit: number) => query(db, ids, name, limit)
    const ready = prepared(query)
    const all = await db.selectFrom('category').select(['id', 'name_en']).orderBy('id').execute()
    expect(all.length).toBeGreaterThan(3)
    for (const [ids, name, limit] of [
      [[all[0].id], 'none', 5],
      [all.map((c) => c.id), all[1].name_en, 3],
      [[all[2].id, all[0].id], 'none', 1],
      [[all[0].id], all[0].name_en, 5],
      [all.map((c) => c.id), 'x', 100],
    ] as Array<[number[], string, number]>) {
      expect(await ready(db, ids, name, limit)).toEqual(await built(ids, name, limit).execute())
    }
    // Twice the same shape with other values: the second call does not answer with the first's.
    expect(await ready(db, [all[1].id], 'none', 5)).toEqual([all[1]])
    expect(await ready(db, [all[2].id], 'none', 5)).toEqual([all[2]])
  })

  it('keeps the query’s own values beside the arguments', async () => {
    const { db } = database
    const first = await db.selectFrom('category').select('id').orderBy('id').executeTakeFirstOrThrow()
    const ready = prepared((k, id: number) =>
      k
        .selectFrom('category')
        .select('id')
        .where('id', '>=', 0)
        .where('id', '=', id)
        .where('name_en', 'is not', null),
    )
    expect(await ready(db, first.id)).toEqual([{ id: first.id }])
    expect(await ready(db, -1)).toEqual([])
    // An argument may go into the query more than once.
    const twice = prepared((k, id: number) =>
      k.selectFrom('category').select('id').where('id', '=', id).where('id', '<=', id),
    )
    expect(await twice(db, first.id)).toEqual([{ id: first.id }])
  })

  it('refuses a builder that keeps an argument out of the query', async () => {
    const { db } = database
    const ready = prepared((k, _id: number) => k.selectFrom('category').select('id').where('id', '=', 1))
    await expect(ready(db, 1)).rejects.toThrow(/each of its arguments/)
  })
})
