import type { CacheBus } from './cache-bus.ts'

// What the public site shows everyone in one language (the content service's FAQ, home boxes and
// pages; the catalogue's categories and skills) is read on nearly every page and changes only when
// the admin area edits it. So a service keeps each answer for a short time (`ttlMs`), and any
// write through the service clears everything at once (`clear`), so this process never serves an
// answer older than the last write. A cache given a name on the cache bus is cleared on every other
// instance too (decision 269); without Redis another process sees the write within `ttlMs`. Keys must come
// from a fixed set (kind and language, a slug that exists), so the cache cannot grow with what
// callers ask. Answers are shared: callers treat them as read-only.
export interface ShortCache {
  get<T>(key: string, load: () => Promise<T>): Promise<T>
  /** Clears this instance's answers at once; settles when the other instances were told too. */
  clear(): Promise<void>
}

export function createShortCache(
  ttlMs: number,
  options: { now?: () => number; shared?: { bus: CacheBus; name: string } } = {},
): ShortCache {
  const now = options.now ?? Date.now
  const entries = new Map<string, { until: number; value: Promise<unknown> }>()
  let generation = 0
  const forgetHere = () => {
    generation++
    entries.clear()
  }
  const forget = options.shared
    ? options.shared.bus.share(options.shared.name, forgetHere)
    : async () => forgetHere()
  return {
    get<T>(key: string, load: () => Promise<T>) {
      if (ttlMs <= 0) return load()
      const hit = entries.get(key)
      if (hit && hit.until > now()) return hit.value as Promise<T>
      const started = generation
      const value = load()
      // Concurrent readers share the one query; a failure is not kept, nor an answer loaded
      // before a write that cleared the cache.
      entries.set(key, { until: now() + ttlMs, value })
      value.then(
        () => {
          if (started !== generation && entries.get(key)?.value === value) entries.delete(key)
        },
        () => {
          if (entries.get(key)?.value === value) entries.delete(key)
        },
      )
      return value
    },
    clear: forget,
  }
}
