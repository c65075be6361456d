import { ApiError } from '#server/api/errors.ts'
import type { RateLimiter, RateLimitRule } from '#server/lib/rate-limit.ts'

// How often one address may use the newsletter and the contact form.
export const contentRateRules = {
  subscribe: { name: 'newsletter:ip', limit: 20, windowMs: 10 * 60_000 } satisfies RateLimitRule,
  // Every request mails the address's owner, so one address gets at most this many a day.
  subscribeMails: { name: 'newsletter:address', limit: 3, windowMs: 24 * 3600_000 } satisfies RateLimitRule,
  confirm: { name: 'newsletter-confirm:ip', limit: 30, windowMs: 15 * 60_000 } satisfies RateLimitRule,
  contact: { name: 'contact:ip', limit: 5, windowMs: 10 * 60_000 } satisfies RateLimitRule,
}

/** Counts a request of `ip` against `rule`; past the limit it answers 429 with Retry-After. */
export async function throttle(rateLimiter: RateLimiter | undefined, rule: RateLimitRule, ip: string) {
  if (!rateLimiter || !ip) return
  const decision = await rateLimiter.hit(rule, ip)
  if (!decision.ok) {
    const error = new ApiError(
      429,
      'Too Many Requests',
      `Too many attempts. Try again in ${decision.retryAfter} seconds.`,
    )
    error.headers = { 'retry-after': String(decision.retryAfter) }
    throw error
  }
}
