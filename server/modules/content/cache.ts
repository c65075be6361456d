// What the public site shows everyone in one language (FAQ, home boxes, services, logos, pages)
// is read on every home page and content page, and changes only when the admin area edits it. So
// the content service keeps each answer for a short time (`ttlMs`), and any write through the
// service clears everything at once (`clear`), so this process never serves an answer older than
// the last write. Another process sees the write within `ttlMs`. Keys come from a fixed set (kind
// and language, or a page's slug that exists), so the cache cannot grow with what callers ask.
export interface ContentCache {
  get<T>(key: string, load: () => Promise<T>): Promise<T>
  clear(): void
}

export function createContentCache(ttlMs: number, now: () => number = Date.now): ContentCache {
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
