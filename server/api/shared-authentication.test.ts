import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createLogger } from '../log.ts'
import { endpoint } from './contract.ts'
import { createApiHandler, implement, type SharedAuthentication } from './handler.ts'

// A page request that changes nothing makes several in-process API calls (the session's user, the
// bell, the messages menu, the page's own data): they share one authentication of the same token.
// Anything else (a form's action, a call with another token, an outside client) authenticates itself.

const who = endpoint({
  method: 'GET',
  path: 'who',
  summary: 'who',
  tag: 'test',
  access: 'user',
  response: z.object({ userId: z.number() }),
})
const touch = endpoint({
  method: 'POST',
  path: 'touch',
  summary: 'touch',
  tag: 'test',
  access: 'user',
  response: z.object({ userId: z.number() }),
})

function setup() {
  const asked: string[] = []
  const handler = createApiHandler({
    implementations: [
      implement(who, ({ ctx }) => ({ userId: ctx.caller!.userId })),
      implement(touch, ({ ctx }) => ({ userId: ctx.caller!.userId })),
    ],
    log: createLogger('silent'),
    authenticate: async (request) => {
      const token = request.headers.get('authorization') ?? ''
      asked.push(token)
      const id = Number(/Bearer (\d+)/.exec(token)?.[1])
      return id ? { userId: id, sessionId: `s${id}`, roles: [] } : null
    },
    validateResponses: true,
  })
  const call = (method: string, path: string, token: string | null, shared?: SharedAuthentication) =>
    handler(
      new Request(`http://in-process/api/v1/${path}`, {
        method,
        headers: token === null ? {} : { authorization: `Bearer ${token}` },
      }),
      { sharedAuthentication: shared },
    )
  return { asked, call }
}

describe('one authentication per page request that changes nothing', () => {
  it('asks once for all the reading calls of one page request, and each answers as that caller', async () => {
    const { asked, call } = setup()
    const page: SharedAuthentication = {}
    const answers = await Promise.all([1, 2, 3, 4].map(() => call('GET', 'who', '7', page)))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200])
    expect(await Promise.all(answers.map((a) => a.json()))).toEqual(Array(4).fill({ userId: 7 }))
    expect(asked).toEqual(['Bearer 7'])
  })

  it('asks again for a call that changes something, for another token, and without a page request', async () => {
    const { asked, call } = setup()
    const page: SharedAuthentication = {}
    await call('GET', 'who', '7', page)
    expect((await call('POST', 'touch', '7', page)).status).toBe(200)
    expect(await (await call('GET', 'who', '8', page)).json()).toEqual({ userId: 8 })
    await call('GET', 'who', '7')
    await call('GET', 'who', '7')
    expect(asked).toEqual(['Bearer 7', 'Bearer 7', 'Bearer 8', 'Bearer 7', 'Bearer 7'])
  })

  it('a call without a token between them (the catalogue) does not make the next one ask again', async () => {
    const { asked, call } = setup()
    const page: SharedAuthentication = {}
    await call('GET', 'who', '7', page)
    expect((await call('GET', 'who', null, page)).status).toBe(401)
    await call('GET', 'who', '7', page)
    expect(asked).toEqual(['Bearer 7', ''])
  })

  it('shares a refusal too: an unknown token is refused on every call', async () => {
    const { asked, call } = setup()
    const page: SharedAuthentication = {}
    const statuses = await Promise.all([1, 2].map(async () => (await call('GET', 'who', 'x', page)).status))
    expect(statuses).toEqual([401, 401])
    expect(asked).toHaveLength(1)
  })
})
