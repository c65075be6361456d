import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, test } from 'vitest'
import { createRedisBackplane } from '../realtime/backplane-redis.ts'
import { createCacheBus } from '../lib/cache-bus.ts'
import { createPageCache } from './page-cache.ts'
import { sharePageCache } from './page-cache-bus.ts'

// Two instances' page caches sharing a real Redis (127.0.0.1:6379, or REDIS_URL): a write on one
// makes the other forget the pages it kept, so a change or a sign-out shows on both at once.
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const prefix = `workneer-test-${randomBytes(4).toString('hex')}:caches:`
const backplanes: Array<{ close(): Promise<void> }> = []
afterAll(async () => {
  await Promise.all(backplanes.map((b) => b.close()))
})

async function instance() {
  const cache = createPageCache({ seconds: 60 })
  const backplane = await createRedisBackplane(redisUrl, prefix)
  backplanes.push(backplane)
  const bus = createCacheBus()
  sharePageCache(cache, bus)
  await bus.connect(backplane)
  let renders = 0
  const render = async () =>
    new Response(`render ${++renders}`, { headers: { 'x-workneer-kept-page': 'own' } })
  const visit = async () =>
    (
      await cache.serve(
        new Request('http://127.0.0.1/freelancers', { headers: { cookie: 'session=alice' } }),
        render,
      )
    ).text()
  return { cache, visit, renders: () => renders }
}

describe('instances sharing Redis forget kept pages together', () => {
  test('a write on A empties B; A itself does not hear its own announcement', async () => {
    const a = await instance()
    const b = await instance()
    await a.visit()
    await b.visit()
    expect(await b.visit()).toBe('render 1')
    expect(b.renders()).toBe(1)
    a.cache.invalidate()
    // Pub/sub is asynchronous: B forgets as soon as the message arrives.
    const deadline = Date.now() + 2000
    while ((await b.visit()) === 'render 1' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10))
    expect(b.renders()).toBe(2)
    // A rendered again after its own write (it forgot locally), and only once since then.
    await a.visit()
    await new Promise((r) => setTimeout(r, 100))
    await a.visit()
    expect(a.renders()).toBe(2)
  })
})
