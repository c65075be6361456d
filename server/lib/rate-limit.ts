import type { Redis } from 'ioredis'

// Fixed-window rate limits. In memory on one server; in Redis (INCR + PEXPIRE, shared by every
// instance) when REDIS_URL is set. A hit answers whether the call may go on and, if not, how many
// seconds to wait (the Retry-After of a 429).
export interface RateLimitRule {
  /** what is limited, e.g. "login:ip" */
  name: string
  limit: number
  windowMs: number
}
export interface RateDecision {
  ok: boolean
  retryAfter: number
}
export interface RateLimiter {
  hit(rule: RateLimitRule, key: string): Promise<RateDecision>
  reset(rule: RateLimitRule, key: string): Promise<void>
  close(): Promise<void>
}

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>()
  let sweeps = 0
  return {
    async hit(rule, key) {
      const id = `${rule.name}:${key}`
      const t = now()
      if (++sweeps % 1000 === 0) for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k)
      let w = windows.get(id)
      if (!w || w.resetAt <= t) windows.set(id, (w = { count: 0, resetAt: t + rule.windowMs }))
      w.count++
      return w.count <= rule.limit ? { ok: true, retryAfter: 0 } : { ok: false, retryAfter: Math.max(1, Math.ceil((w.resetAt - t) / 1000)) }
    },
    async reset(rule, key) {
      windows.delete(`${rule.name}:${key}`)
    },
    async close() {},
  }
}

export function createRedisRateLimiter(url: string, prefix: string): RateLimiter {
  // Connects on the first command; a Redis that is down fails the call (500) rather than letting it through.
  // ioredis itself is loaded then too, so a server without Redis never holds it (decision 136).
  let client: Promise<Redis> | undefined
  const connect = () => (client ??= import('ioredis').then(({ Redis }) => new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 })))
  const k = (rule: RateLimitRule, key: string) => `${prefix}rl:${rule.name}:${key}`
  return {
    async hit(rule, key) {
      const id = k(rule, key)
      const redis = await connect()
      const [[, count], [, ttl]] = (await redis.multi().incr(id).pttl(id).exec()) as [[null, number], [null, number]]
      let remaining = ttl
      if (ttl < 0) {
        await redis.pexpire(id, rule.windowMs)
        remaining = rule.windowMs
      }
      return count <= rule.limit ? { ok: true, retryAfter: 0 } : { ok: false, retryAfter: Math.max(1, Math.ceil(remaining / 1000)) }
    },
    async reset(rule, key) {
      await (await connect()).del(k(rule, key))
    },
    async close() {
      if (client) await (await client).quit().catch(() => {})
    },
  }
}

export function createRateLimiter(options: { redisUrl?: string; redisPrefix?: string }): RateLimiter {
  return options.redisUrl ? createRedisRateLimiter(options.redisUrl, options.redisPrefix ?? 'workneer:') : createMemoryRateLimiter()
}
