import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './rate-limit.ts'

// Both limiters answer alike; the Redis one (real Redis at 127.0.0.1:6379) connects, and loads
// ioredis, on its first call (decision 136), and counts across the limiters that share it.
const rule = { name: 'test:login', limit: 2, windowMs: 60_000 }

async function limitsAndResets(limiter: RateLimiter, key: string) {
  const decisions = [await limiter.hit(rule, key), await limiter.hit(rule, key), await limiter.hit(rule, key)]
  expect(decisions.map((d) => d.ok)).toEqual([true, true, false])
  expect(decisions[2].retryAfter).toBeGreaterThanOrEqual(59)
  expect((await limiter.hit(rule, `${key}-other`)).ok).toBe(true)
  await limiter.reset(rule, key)
  expect((await limiter.hit(rule, key)).ok).toBe(true)
}

describe('rate limits', () => {
  it('in memory: a window of `limit` calls per key, then a wait; reset opens it again', async () => {
    const limiter = createMemoryRateLimiter()
    await limitsAndResets(limiter, 'a')
    await limiter.close()
  })

  it('in Redis: the same, and two instances share the count', async () => {
    const prefix = `test-${randomBytes(4).toString('hex')}:`
    const [a, b] = [
      createRedisRateLimiter('redis://127.0.0.1:6379', prefix),
      createRedisRateLimiter('redis://127.0.0.1:6379', prefix),
    ]
    try {
      await limitsAndResets(a, 'ip-1')
      expect((await b.hit(rule, 'ip-1')).ok).toBe(true)
      expect((await a.hit(rule, 'ip-1')).ok).toBe(false)
      await a.reset(rule, 'ip-1')
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it("Redis down: each call is answered at once from this instance's memory, limits still hold, and the outage is told once", async () => {
    const told: Array<string | null> = []
    const limiter = createRedisRateLimiter('redis://127.0.0.1:1', 'down:', {
      onOutage: (error) => told.push(error && 'out'),
    })
    try {
      const started = Date.now()
      await limitsAndResets(limiter, 'ip-1')
      expect(Date.now() - started).toBeLessThan(2000)
      expect(told).toEqual(['out'])
    } finally {
      await limiter.close()
    }
  })

  it('in Redis: closing a limiter that never called does not connect', async () => {
    await createRedisRateLimiter('redis://127.0.0.1:1', 'never:').close()
  })
})
