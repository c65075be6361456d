import type { CacheBus } from '../lib/cache-bus.ts'
import type { PageCache } from './page-cache.ts'

/**
 * Instances that share Redis (REDIS_URL) forget their kept pages together: a write on one goes
 * over the cache bus (server/lib/cache-bus.ts, decision 269) and every other instance forgets what
 * it kept, so a sign-out or a change shows on all of them at once rather than within
 * PAGE_CACHE_SECONDS. Pub/sub is at most once: during a Redis outage the kept pages still expire
 * after their few seconds.
 */
export function sharePageCache(cache: PageCache, bus: CacheBus) {
  const everywhere = bus.share('pages', () => cache.forget())
  cache.onInvalidate(() => void everywhere())
}
