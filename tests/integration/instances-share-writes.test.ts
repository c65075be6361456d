import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { moduleTestApi, useModuleApi, type ModuleTestApi } from './module-api.ts'

// Two instances (two whole APIs) on one PostgreSQL database, as behind a balancer: what one instance
// answers (the content, the catalogue, freelancer searches) shows the other's write at once, because
// neither keeps answers in memory. Each value is read first on B, then A writes, then B must answer
// the new one.
describe("instances sharing one database show each other's writes at once", () => {
  // Instance A is the block's own API; B is closed before it.
  const s = useModuleApi('postgres', { name: 'shared-a', addressBlock: 61 })
  let a: ModuleTestApi
  let b: ModuleTestApi
  let admin: Awaited<ReturnType<typeof a.admin>>

  beforeAll(async () => {
    a = s.t
    b = moduleTestApi(s.database, { name: 'shared-b', addressBlock: 62, freelancerTitle: 'Bridge engineer' })
    admin = await a.admin()
  }, 60_000)
  afterAll(() => b.close())

  test('an admin edits the content on A: B shows the new logo at once', async () => {
    const names = async () =>
      ((await b.call('GET', 'Settings/logos')).json.data as Array<{ name: string }>).map((l) => l.name)
    expect(await names()).not.toContain('Acme Bridges')
    const logo = await a.call('POST', 'Admin/content/logos', {
      token: admin.token,
      body: { name: 'Acme Bridges', imageUrl: '/images/logos/acme.svg', linkUrl: 'https://acme.example' },
    })
    expect(logo.status).toBe(200)
    expect(await names()).toContain('Acme Bridges')
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
    expect(await names()).toContain('Tunnels')
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
    expect(await found()).toBe(1)
  })
})
