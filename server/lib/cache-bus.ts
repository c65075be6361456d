import { randomUUID } from 'node:crypto'
import type { Backplane } from '../realtime/types.ts'

// A cache an instance keeps in its own memory (the page cache) is forgotten through this bus, so
// a write on one instance is not answered from another's memory for the rest of a TTL (decision
// 269). Until `connect` (or without Redis) a forget is only local, which is all one process needs.
// The channel is one no hub can have (hubs publish under their own names: `chat:…`, `notifications:…`).
const CHANNEL = 'caches:forget'

export interface CacheBus {
  /**
   * Registers a cache under a name unique in the process. The answer forgets it here at once and
   * on every other instance; its promise settles once the other instances were told (it never
   * rejects: during a Redis outage they still forget when their TTL ends), so a write can answer
   * its caller only after that.
   */
  share(name: string, forgetHere: () => void): () => Promise<void>
  /** Hears and tells the other instances through this backplane from now on. */
  connect(backplane: Backplane): Promise<void>
}

export function createCacheBus(
  options: { instance?: string; onError?: (error: unknown) => void } = {},
): CacheBus {
  const instance = options.instance ?? randomUUID()
  const caches = new Map<string, () => void>()
  let backplane: Backplane | undefined
  return {
    share(name, forgetHere) {
      if (caches.has(name) || /\s/.test(name))
        throw new Error(`cache ${name} is already shared, or its name has a space`)
      caches.set(name, forgetHere)
      return async () => {
        forgetHere()
        await backplane?.publish(CHANNEL, `${instance} ${name}`).catch((error) => options.onError?.(error))
      }
    },
    async connect(to) {
      await to.subscribe(CHANNEL, (message) => {
        const [from, name] = message.split(' ')
        if (from !== instance) caches.get(name)?.()
      })
      backplane = to
    },
  }
}

/** A bus that only ever forgets locally: services built without one (tests, scripts) get this. */
export const localBus = () => createCacheBus()
