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
    // The hourly demo projects state a range of rates and hours a week; their proposals, hours a week.
    const hourly = await t.api.get('projects?budgetType=hourly&pageSize=50')
    expect(hourly.json.total).toBeGreaterThan(0)
    for (const p of hourly.json.data as Array<{
      budgetMinMinor: number
      budgetMinor: number
      hoursPerWeek: number
    }>) {
      expect(p.budgetMinMinor).toBeGreaterThan(0)
      expect(p.budgetMinMinor).toBeLessThanOrEqual(p.budgetMinor)
      expect(p.hoursPerWeek).toBeGreaterThan(0)
    }
    const bids = await t.database.db
      .selectFrom('proposal as pr')
      .innerJoin('project as p', 'p.id', 'pr.project_id')
      .select(['pr.weekly_hours', 'p.budget_type'])
      .execute()
    for (const b of bids) expect(b.weekly_hours === null).toBe(b.budget_type === 'fixed')
  })
})
