import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createLogger } from '../log.ts'
import { createPageCache } from '../http/page-cache.ts'
import { endpoint } from './contract.ts'
import { createApiHandler, implement, type Caller, type CallInfo } from './handler.ts'

// Decision 277: the in-process web UI's calls check a session's token once for all its pages, by
// the page cache's rules (until the next write or delivery, PAGE_CACHE_SECONDS at most, never past
// the session's end); HTTP clients' calls check it every time.
const who = endpoint({
  method: 'GET',
  path: 'who',
  summary: 'test',
  tag: 'Test',
  access: 'user',
  response: z.object({ userId: z.number() }),
})

function api(sessions: Map<string, Caller>) {
  let checks = 0
  const handler = createApiHandler({
    implementations: [implement(who, ({ ctx }) => ({ userId: ctx.caller!.userId }))],
    log: createLogger('silent'),
    authenticate: async (request) => {
      checks++
      return sessions.get(request.headers.get('authorization') ?? '') ?? null
    },
    validateResponses: true,
  })
  const call = (token: string, info: CallInfo = {}) =>
    handler(
      new Request('http://in-process/api/v1/who', { headers: { authorization: `Bearer ${token}` } }),
      info,
    )
  return { call, checks: () => checks }
}

const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString()

describe('a caller kept for the session (in-process calls)', () => {
  it('checks a token once across page requests, and again after a write or when the session has ended', async () => {
    const sessions = new Map<string, Caller>([
      ['Bearer a', { userId: 1, sessionId: 's1', roles: [], expiresAt: inFuture(60_000) }],
    ])
    const { call, checks } = api(sessions)
    const cache = createPageCache({ seconds: 5 })
    // Each page request has its own callers map, as server/app.ts gives it.
    const page = (token: string) =>
      call(token, { callers: new Map(), remember: (key, read) => cache.remember(key, read), inProcess: true })
    expect((await page('a')).status).toBe(200)
    expect((await page('a')).status).toBe(200)
    expect(checks()).toBe(1)
    // A sign-out is a write: the next page checks the token again and finds no one.
    sessions.delete('Bearer a')
    cache.invalidate()
    expect((await page('a')).status).toBe(401)
    expect(checks()).toBe(2)
    // A session that ends while its caller is kept is checked afresh once it has ended.
    sessions.set('Bearer b', { userId: 2, sessionId: 's2', roles: [], expiresAt: inFuture(50) })
    expect((await page('b')).status).toBe(200)
    expect(checks()).toBe(3)
    sessions.delete('Bearer b')
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect((await page('b')).status).toBe(401)
    expect(checks()).toBe(4)
  })

  it('keeps nothing for a call that does not pass the page cache (HTTP clients)', async () => {
    const sessions = new Map<string, Caller>([
      ['Bearer a', { userId: 1, sessionId: 's1', roles: [], expiresAt: inFuture(60_000) }],
    ])
    const { call, checks } = api(sessions)
    await call('a')
    await call('a', { callers: new Map() })
    await call('a', { callers: new Map() })
    expect(checks()).toBe(3)
  })
})
