// What the public site shows everyone in one language (the content service's FAQ, home boxes and
// pages; the catalogue's categories and skills) is read on nearly every page and changes only when
// the admin area edits it. So a service keeps each answer for a short time (`ttlMs`), and any
// write through the service clears everything at once (`clear`), so this process never serves an
// answer older than the last write. Another process sees the write within `ttlMs`. Keys must come
// from a fixed set (kind and language, a slug that exists), so the cache cannot grow with what
// callers ask. Answers are shared: callers treat them as read-only.
export interface ShortCache {
  get<T>(key: string, load: () => Promise<T>): Promise<T>
  clear(): void
}

export function createShortCache(ttlMs: number, now: () => number = Date.now): ShortCache {
  const entries = new Map<string, { until: number; value: Promise<unknown> }>()
  let generation = 0
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
    clear() {
      generation++
      entries.clear()
    },
  }
}
