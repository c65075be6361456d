import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestDatabase, dialects } from './databases.ts'
import { useTestApi } from './api-client.ts'
import { createApi } from '#server/api/index.ts'
import { loadConfig } from '#server/config.ts'
import { inOneTransaction } from '#server/db/atomic.ts'
import { loadDemo, seedDemo } from '#server/db/demo.ts'
import type { Db } from '#server/db/database.ts'
import { createLogger } from '#server/log.ts'
import { Role } from '#server/modules/identity/permissions.ts'
import { demoClients, demoFreelancers, demoProjects } from '#server/db/seed-data/demo.ts'

const log = createLogger('silent')
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-demo-')),
})
const count = async (
  database: Db,
  table: 'app_user' | 'project' | 'proposal' | 'outbox' | 'freelancer_profile' | 'freelancer_language',
) =>
  Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

describe.each(dialects)('demo marketplace on %s', (dialect) => {
  const t = useTestApi(dialect)

  it('leaves nothing of a load that stops half-way: its services ran in one transaction', async () => {
    await expect(
      inOneTransaction(t.database, async (trx) => {
        const api = createApi({ database: trx, log, config })
        await api.jobs.outbox.stop()
        await seedDemo({ services: api.services, log })
        expect(await count(trx, 'project')).toBe(demoProjects.length)
        throw new Error('the power went out')
      }),
    ).rejects.toThrow('the power went out')
    for (const table of ['app_user', 'project', 'proposal', 'outbox', 'freelancer_profile'] as const)
      expect(await count(t.database, table), table).toBe(0)
    // The search indexes went with it (on SQLite they are FTS tables that no foreign key covers).
    for (const index of ['project_search', 'freelancer_search'])
      expect(
        (await sql<{ n: number }>`select count(*) as n from ${sql.table(index)}`.execute(t.database.db))
          .rows[0].n,
        index,
      ).toBe(0)
    expect((await t.api.get('projects?search=structural%20calculations')).json.total).toBe(0)
  })

  it('then loads whole, once, with a per-installation password, and says so on the marker', async () => {
    const services = t.api.api.services
    const first = await loadDemo({ database: t.database, config, log, services, onlyIntoEmpty: true })
    expect(first?.password).toMatch(/^demo-[\w-]{12}$/)
    expect(first?.accounts.size).toBe(demoClients.length + demoFreelancers.length)
    expect(await count(t.database, 'project')).toBe(demoProjects.length)
    expect(await loadDemo({ database: t.database, config, log, services, onlyIntoEmpty: false })).toBeNull()
    expect(await count(t.database, 'project')).toBe(demoProjects.length)
    const marker = await t.database.db
      .selectFrom('seed_marker')
      .selectAll()
      .where('name', '=', 'demo')
      .execute()
    expect(marker).toEqual([
      expect.objectContaining({ name: 'demo', attempts: 1, completed_at: expect.any(String) }),
    ])

    const login = await t.api.request('POST', 'identity/login', {
      body: { email: demoFreelancers[0].email, password: first!.password },
    })
    expect(login.status).toBe(200)
    const client = await t.api.request('POST', 'identity/login', {
      body: { email: demoClients[0].email, password: first!.password },
    })
    expect(client.status).toBe(200)
    const wrong = await t.api.request('POST', 'identity/login', {
      body: { email: demoFreelancers[0].email, password: 'not-the-demo-password' },
    })
    expect(wrong.status).toBe(401)
    expect((await t.api.get('projects?search=structural%20calculations')).json.total).toBeGreaterThan(0)
  })

  it('undoes a service transaction that fails inside the one transaction, and keeps the rest', async () => {
    const languages = await count(t.database, 'freelancer_language')
    const userId = await inOneTransaction(t.database, async (trx) => {
      const api = createApi({ database: trx, log, config })
      await api.jobs.outbox.stop()
      const accounts = await api.services.identity.createDemoAccounts(
        [
          {
            accountType: 'freelancer',
            firstName: 'Ola',
            lastName: 'Nordmann',
            email: 'ola.nordmann@example.com',
            language: 'en',
          },
        ],
        'demo-savepoints-1234',
      )
      const caller = {
        userId: accounts.get('ola.nordmann@example.com')!,
        sessionId: 'demo',
        roles: [Role.Freelancer],
      }
      await api.services.profiles.freelancer.languageAdd(caller, 'en', { code: 'en', level: 'native' })
      // Fails inside the service's own transaction (a savepoint here): only that is undone.
      await expect(
        api.services.profiles.freelancer.languageAdd(caller, 'en', { code: 'en', level: 'fluent' }),
      ).rejects.toThrow(/already listed/)
      await api.services.profiles.freelancer.titleOverview(caller, 'en', {
        title: 'Surveyor – drone photogrammetry',
        overview:
          'Point clouds and orthophotos for sites across Norway, delivered as LAS and GeoTIFF within a week of the flight.',
      })
      return caller.userId
    })
    expect(await count(t.database, 'freelancer_language')).toBe(languages + 1)
    const profile = await t.database.db
      .selectFrom('freelancer_profile')
      .select('title')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    expect(profile.title).toBe('Surveyor – drone photogrammetry')
  })
})

// Several instances share a database only on PostgreSQL (one SQLite file has one server).
describe('two instances starting together on one PostgreSQL database', () => {
  it('load the demo marketplace once: the second waits for the first and finds it loaded', async () => {
    const testDb = await createTestDatabase('postgres')
    const a = await testDb.open()
    const b = await testDb.open({ migrate: false })
    const apis = [createApi({ database: a, log, config }), createApi({ database: b, log, config })]
    try {
      const results = await Promise.all(
        [a, b].map((database, i) =>
          loadDemo({ database, config, log, services: apis[i].services, onlyIntoEmpty: true }),
        ),
      )
      expect(results.filter((r) => r !== null)).toHaveLength(1)
      expect(await count(a, 'app_user')).toBe(demoClients.length + demoFreelancers.length)
      expect(await count(b, 'project')).toBe(demoProjects.length)
    } finally {
      for (const api of apis) await api.jobs.close()
      await a.close()
      await b.close()
      await testDb.drop()
    }
  })
})
