import { randomUUID } from 'node:crypto'
import type { Backplane } from '../realtime/types.ts'
import type { PageCache } from './page-cache.ts'

const CHANNEL = 'changed'

/**
 * Instances that share Redis (REDIS_URL) forget their kept pages together: a write on one is
 * published, and every other instance forgets what it kept, so a sign-out or a change shows on all
 * of them at once rather than within PAGE_CACHE_SECONDS. Pub/sub is at most once: during a Redis
 * outage the kept pages still expire after their few seconds.
 */
export async function sharePageCache(cache: PageCache, backplane: Backplane, instance = randomUUID()) {
  await backplane.subscribe(CHANNEL, (from) => {
    if (from !== instance) cache.forget()
  })
  cache.onInvalidate(() => {
    backplane.publish(CHANNEL, instance).catch(() => {})
  })
}
