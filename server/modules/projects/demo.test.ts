import { describe, expect, it } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { useTestApi } from '../../../tests/integration/api-client.ts'
import { seedDemo } from '#server/db/demo.ts'
import { createLogger } from '#server/log.ts'
import { demoProjects } from '#server/db/seed-data/demo.ts'

describe.each(dialects)('demo projects on %s', (dialect) => {
  const t = useTestApi(dialect)

  it('publishes every demo project through the service, with proposals and one running contract', async () => {
    await seedDemo({ services: t.api.api.services, log: createLogger('silent') })
    const list = await t.api.get('projects?pageSize=50')
    expect(list.status).toBe(200)
    expect(list.json.total).toBe(demoProjects.length - 1)
    const contracts = await t.database.db.selectFrom('contract').select(['status']).execute()
    expect(contracts).toEqual([{ status: 'active' }])
    expect(
      Number(
        (
          await t.database.db
            .selectFrom('proposal')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBeGreaterThan(3)
    const found = await t.api.get('projects?search=structural%20calculations')
    expect(found.json.total).toBeGreaterThan(0)
  })
})
