import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, dialects, type TestDatabase } from '../../../tests/integration/databases.ts'
import { testApi } from '../../../tests/integration/api-client.ts'
import { seedDemo } from '../../db/demo.ts'
import { createLogger } from '../../log.ts'
import { demoProjects } from '../../db/seed-data/demo.ts'
import type { Db } from '../../db/database.ts'

describe.each(dialects)('demo projects on %s', (dialect) => {
  let testDb: TestDatabase
  let database: Db
  let api: ReturnType<typeof testApi>
  beforeAll(async () => {
    testDb = await createTestDatabase(dialect)
    database = await testDb.open()
    api = testApi(database)
  })
  afterAll(async () => {
    await api.api.jobs.close()
    await database.close()
    await testDb.drop()
  })

  it('publishes every demo project through the service, with proposals and one running contract', async () => {
    await seedDemo({ services: api.api.services, log: createLogger('silent') })
    const list = await api.get('projects?pageSize=50')
    expect(list.status).toBe(200)
    expect(list.json.total).toBe(demoProjects.length - 1)
    const contracts = await database.db.selectFrom('contract').select(['status']).execute()
    expect(contracts).toEqual([{ status: 'active' }])
    expect(Number((await database.db.selectFrom('proposal').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBeGreaterThan(3)
    const found = await api.get('projects?search=structural%20calculations')
    expect(found.json.total).toBeGreaterThan(0)
  })
})
