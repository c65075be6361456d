import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createLogger } from '../log.ts'
import { endpoint, type Access } from './contract.ts'
import { createApiHandler, implement, type Caller } from './handler.ts'
import { Role } from '../modules/identity/permissions.ts'

// Decision 220: the admin API is guarded in one place, before the endpoint's own code runs.
const adminEndpoint = (access: Access) =>
  endpoint({
    method: 'POST',
    path: 'Admin/things',
    summary: 'test',
    tag: 'Admin',
    access,
    body: z.object({ n: z.number() }),
    response: z.object({ ok: z.boolean() }),
  })

function handlerFor(caller: Caller | null) {
  let ran = 0
  const handler = createApiHandler({
    implementations: [implement(adminEndpoint('admin'), () => ((ran += 1), { ok: true }))],
    log: createLogger('silent'),
    authenticate: async () => caller,
    validateResponses: true,
  })
  const call = (body: unknown) =>
    handler(
      new Request('http://x/api/v1/Admin/things', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    )
  return { call, ran: () => ran }
}

describe('the admin API guard', () => {
  it('answers 401 to a visitor and 403 to every other role, before reading the input', async () => {
    const visitor = handlerFor(null)
    expect((await visitor.call({ n: 'bad' })).status).toBe(401)
    for (const role of [Role.Client, Role.Company, Role.Freelancer]) {
      const user = handlerFor({ userId: 7, sessionId: 's', roles: [role] })
      expect((await user.call({ n: 'bad' })).status).toBe(403)
      expect(user.ran()).toBe(0)
    }
    const admin = handlerFor({ userId: 1, sessionId: 's', roles: [Role.SuperAdmin] })
    expect((await admin.call({ n: 'bad' })).status).toBe(400)
    expect((await admin.call({ n: 1 })).status).toBe(200)
    expect(admin.ran()).toBe(1)
  })

  it('refuses to start with an Admin/ endpoint that is not admin-only', () => {
    for (const access of ['public', 'user'] as const) {
      expect(() =>
        createApiHandler({
          implementations: [implement(adminEndpoint(access), () => ({ ok: true }))],
          log: createLogger('silent'),
          authenticate: async () => null,
          validateResponses: true,
        }),
      ).toThrow(/must have access 'admin'/)
    }
  })
})
