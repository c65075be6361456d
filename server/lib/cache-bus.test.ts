import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createRedisBackplane } from '../realtime/backplane-redis.ts'
import { moduleTestApi, useModuleApi, type ModuleTestApi } from '../../tests/integration/module-api.ts'
import { createCacheBus } from './cache-bus.ts'

// Two instances (two whole APIs) on one PostgreSQL database and one real Redis (127.0.0.1:6379, or
// REDIS_URL), as behind a balancer (decision 269): what one instance answers — the content, the
// catalogue, freelancer searches — shows the other's write at once. Each write is read first on B,
// so B has answered the old value; then A writes; then B must answer the new one.
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const prefix = `workneer-test-${randomBytes(4).toString('hex')}:caches:`

/** Polls `read` until it passes `ok` or two seconds pass; answers the last value read. */
async function within<T>(read: () => Promise<T>, ok: (value: T) => boolean) {
  const deadline = Date.now() + 2000
  let value = await read()
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20))
    value = await read()
  }
  return value
}

describe('instances sharing Redis forget what they keep together', () => {
  // Instance A is the block's own API; B and the Redis connections are closed before it.
  const s = useModuleApi('postgres', { name: 'bus-a', addressBlock: 61 })
  const closing: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const close of closing.reverse()) await close()
  })
  let a: ModuleTestApi
  let b: ModuleTestApi
  let admin: Awaited<ReturnType<typeof a.admin>>

  beforeAll(async () => {
    a = s.t
    b = moduleTestApi(s.database, { name: 'bus-b', addressBlock: 62, freelancerTitle: 'Bridge engineer' })
    closing.push(() => b.close())
    for (const t of [a, b]) {
      const backplane = await createRedisBackplane(redisUrl, prefix)
      await t.api.caches.connect(backplane)
      closing.push(() => backplane.close())
    }
    admin = await a.admin()
  }, 60_000)

  test('an admin edits the content on A: B shows the new logo at once', async () => {
    const names = async () =>
      ((await b.call('GET', 'Settings/logos')).json.data as Array<{ name: string }>).map((l) => l.name)
    expect(await names()).not.toContain('Acme Bridges')
    const logo = await a.call('POST', 'Admin/content/logos', {
      token: admin.token,
      body: { name: 'Acme Bridges', imageUrl: '/images/logos/acme.svg', linkUrl: 'https://acme.example' },
    })
    expect(logo.status).toBe(200)
    expect(await within(names, (n) => n.includes('Acme Bridges'))).toContain('Acme Bridges')
  })

  test('an admin adds a category on A: B lists it at once', async () => {
    const names = async () =>
      ((await b.call('GET', 'settings/dropdowns/categories')).json.data as Array<{ name: string }>).map(
        (c) => c.name,
      )
    expect(await names()).not.toContain('Tunnels')
    const names5 = { en: 'Tunnels', es: 'Túneles', de: 'Tunnel', it: 'Gallerie', ru: 'Тоннели' }
    expect(
      (
        await a.call('POST', 'Admin/catalogue/items', {
          token: admin.token,
          body: { kind: 'category', names: names5 },
        })
      ).status,
    ).toBe(200)
    expect(await within(names, (n) => n.includes('Tunnels'))).toContain('Tunnels')
  })

  test('a freelancer changes their title on A: a search on B finds the new one at once', async () => {
    const freelancer = await b.user('freelancer')
    const client = await b.user('client')
    const found = async () =>
      ((await b.call('GET', 'freelancers/search?q=viaduct', { token: client.token })).json.data as unknown[])
        .length
    expect(await found()).toBe(0)
    const changed = await a.call('PUT', 'freelancers/profile/title', {
      token: freelancer.token,
      body: { title: 'Viaduct engineer' },
    })
    expect(changed.status, JSON.stringify(changed.json)).toBe(200)
    expect(await within(found, (n) => n > 0)).toBe(1)
  })

  test('a name is one cache; an instance does not hear its own forget', async () => {
    const bus = createCacheBus()
    let forgotten = 0
    const forget = bus.share('x', () => forgotten++)
    expect(() => bus.share('x', () => {})).toThrow('already shared')
    const backplane = await createRedisBackplane(redisUrl, prefix)
    closing.push(() => backplane.close())
    await bus.connect(backplane)
    await forget()
    await new Promise((r) => setTimeout(r, 100))
    expect(forgotten).toBe(1)
  })
})
