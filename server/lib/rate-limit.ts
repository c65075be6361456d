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
      return w.count <= rule.limit
        ? { ok: true, retryAfter: 0 }
        : { ok: false, retryAfter: Math.max(1, Math.ceil((w.resetAt - t) / 1000)) }
    },
    async reset(rule, key) {
      windows.delete(`${rule.name}:${key}`)
    },
    async close() {},
  }
}

export function createRedisRateLimiter(
  url: string,
  prefix: string,
  options: { onOutage?: (error: Error | null) => void } = {},
): RateLimiter {
  // Connects on the first call; ioredis itself is loaded then too, so a server without Redis never
  // holds it (decision 136). While Redis cannot answer, this instance counts in its own memory (at
  // once: no command waits in a queue) and says so once, so sign-in and sign-up keep working during
  // an outage, limited per instance, and are counted in Redis again when it answers (decision 270).
  let client: Promise<Redis> | undefined
  const connect = () =>
    (client ??= import('ioredis').then(async ({ Redis }) => {
      const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 })
      redis.on('error', () => {}) // told once per outage through onOutage, not per reconnect attempt
      await redis.connect().catch(() => {}) // a refusal is retried by ioredis; calls meanwhile count in memory
      return redis
    }))
  const local = createMemoryRateLimiter()
  let out = false
  const outage = (error: Error | null) => {
    if (out === (error !== null)) return
    out = error !== null
    options.onOutage?.(error)
  }
  const k = (rule: RateLimitRule, key: string) => `${prefix}rl:${rule.name}:${key}`
  return {
    async hit(rule, key) {
      try {
        const decision = await redisHit(await connect(), k(rule, key), rule)
        outage(null)
        return decision
      } catch (error) {
        outage(error as Error)
        return local.hit(rule, key)
      }
    },
    async reset(rule, key) {
      await local.reset(rule, key)
      await (await connect()).del(k(rule, key)).catch((error: Error) => outage(error))
    },
    async close() {
      if (!client) return
      const redis = await client
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}

async function redisHit(redis: Redis, id: string, rule: RateLimitRule): Promise<RateDecision> {
  const [[, count], [, ttl]] = (await redis.multi().incr(id).pttl(id).exec()) as [
    [null, number],
    [null, number],
  ]
  let remaining = ttl
  if (ttl < 0) {
    await redis.pexpire(id, rule.windowMs)
    remaining = rule.windowMs
  }
  return count <= rule.limit
    ? { ok: true, retryAfter: 0 }
    : { ok: false, retryAfter: Math.max(1, Math.ceil(remaining / 1000)) }
}

export function createRateLimiter(options: {
  redisUrl?: string
  redisPrefix?: string
  onOutage?: (error: Error | null) => void
}): RateLimiter {
  return options.redisUrl
    ? createRedisRateLimiter(options.redisUrl, options.redisPrefix ?? 'workneer:', {
        onOutage: options.onOutage,
      })
    : createMemoryRateLimiter()
}
