import { describe, expect, it } from 'vitest'
import { dialects } from './databases.ts'
import { useTestApi } from './api-client.ts'
import { seedDemo } from '../../server/db/demo.ts'
import { createLogger } from '../../server/log.ts'
import { demoClients, demoFreelancers } from '../../server/db/seed-data/demo.ts'

describe.each(dialects)('demo marketplace on %s', (dialect) => {
  const t = useTestApi(dialect)

  it('creates signed-up, confirmed demo accounts once, with a per-installation password', async () => {
    const services = t.api.api.services
    expect(await services.identity.hasNoAccounts()).toBe(true)
    const first = await seedDemo({ services, log: createLogger('silent') })
    expect(first.password).toMatch(/^demo-[\w-]{12}$/)
    expect(first.accounts.size).toBe(demoClients.length + demoFreelancers.length)
    expect(await services.identity.hasNoAccounts()).toBe(false)
    const again = await seedDemo({ services, log: createLogger('silent'), password: first.password })
    expect([...again.accounts.values()]).toEqual([...first.accounts.values()])

    const login = await t.api.request('POST', 'identity/login', { body: { email: demoFreelancers[0].email, password: first.password } })
    expect(login.status).toBe(200)
    const wrong = await t.api.request('POST', 'identity/login', { body: { email: demoFreelancers[0].email, password: 'not-the-demo-password' } })
    expect(wrong.status).toBe(401)
  })
})
