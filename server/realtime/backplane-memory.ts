import type { Backplane } from './types.ts'

type Handler = (message: string) => void

/**
 * In-process pub/sub. Delivery is synchronous, so `await send()` means every instance sharing this
 * object has written the message; several HubServers in one process (tests) can share one.
 */
export function createMemoryBackplane(): Backplane {
  const channels = new Map<string, Set<Handler>>()
  return {
    async publish(channel, message) {
      const handlers = channels.get(channel)
      if (!handlers) return
      for (const handler of [...handlers]) handler(message)
    },
    async subscribe(channel, handler) {
      let handlers = channels.get(channel)
      if (!handlers) channels.set(channel, (handlers = new Set()))
      handlers.add(handler)
    },
    async unsubscribe(channel, handler) {
      const handlers = channels.get(channel)
      if (!handlers) return
      handlers.delete(handler)
      if (!handlers.size) channels.delete(channel)
    },
    async close() {
      channels.clear()
    },
  }
}
