import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Backplane, Logger } from './types.ts'

type Handler = (message: string) => void

export interface RedisBackplane extends Backplane {
  /** The CLIENT SETNAME of the subscriber connection, so operators (and tests) can find it. */
  readonly subscriberName: string
}

const silent: Logger = { info() {}, warn() {}, error() {} }

/** The publishing and the subscribing connection, connected; each distinct error is logged once. */
async function openClients(url: string, clientName: string, logger: Logger) {
  // Loaded only when Redis is configured: ioredis is ~15 MB of a server's memory (decision 136).
  const { Redis } = await import('ioredis')
  const pub = new Redis(url, {
    lazyConnect: true,
    connectionName: `${clientName}pub`,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  })
  const sub = new Redis(url, {
    lazyConnect: true,
    connectionName: `${clientName}sub`,
    autoResubscribe: true,
    maxRetriesPerRequest: null,
  })
  let lastError = ''
  for (const [role, client] of [
    ['publisher', pub],
    ['subscriber', sub],
  ] as const) {
    // Without a listener ioredis prints every reconnect failure; report each distinct error once instead.
    client.on('error', (error: Error) => {
      if (error.message !== lastError) logger.warn({ err: error, role }, 'redis backplane error')
      lastError = error.message
    })
    client.on('ready', () => {
      if (lastError) logger.info({ role }, 'redis backplane reconnected')
      lastError = ''
    })
  }
  await Promise.all([pub.connect(), sub.connect()])
  return { pub, sub }
}

/**
 * Redis pub/sub with one publishing and one subscribing connection per process (a subscribed
 * connection cannot publish). Every channel is `{prefix}{logical channel}`; give each deployment its
 * own prefix, or broadcasts leak between apps sharing a Redis.
 *
 * On a Redis restart ioredis reconnects and re-subscribes (autoResubscribe), so delivery resumes;
 * what is published during the outage is lost (pub/sub is at most once) and publish() rejects at once
 * rather than queueing, so callers learn about it.
 */
export async function createRedisBackplane(
  url: string,
  prefix: string,
  options: { logger?: Logger } = {},
): Promise<RedisBackplane> {
  const logger = options.logger ?? silent
  const fullPrefix = prefix && !prefix.endsWith(':') ? `${prefix}:` : prefix
  // Unique per process and instance, so one backplane's connections can be told apart in CLIENT LIST.
  const clientName = `${fullPrefix}${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}-`.replace(
    /[^A-Za-z0-9_.:-]/g,
    '_',
  )
  const subscriberName = `${clientName}sub`
  const { pub, sub } = await openClients(url, clientName, logger)

  const handlers = new Map<string, Set<Handler>>()
  const pending = new Map<string, Promise<void>>()
  sub.on('message', (channel: string, message: string) => {
    if (!channel.startsWith(fullPrefix)) return
    const set = handlers.get(channel.slice(fullPrefix.length))
    if (!set) return
    for (const handler of [...set]) {
      try {
        handler(message)
      } catch (error) {
        logger.error({ err: error, channel }, 'backplane handler failed')
      }
    }
  })

  // During an outage a (un)subscribe waits in ioredis' offline queue and is replayed on reconnect;
  // callers should not hang on it meanwhile.
  const settle = (command: Promise<unknown>): Promise<void> => {
    const done = command.then(() => undefined)
    if (sub.status === 'ready') return done
    done.catch((error: unknown) => logger.warn({ err: error }, 'redis subscription change failed'))
    return Promise.resolve()
  }

  return {
    subscriberName,
    async publish(channel, message) {
      await pub.publish(fullPrefix + channel, message)
    },
    async subscribe(channel, handler) {
      let set = handlers.get(channel)
      if (set) {
        set.add(handler)
        // A second subscriber must not be told "ready" before the first SUBSCRIBE is confirmed.
        await pending.get(channel)
        return
      }
      handlers.set(channel, (set = new Set([handler])))
      const confirmed = settle(sub.subscribe(fullPrefix + channel)).finally(() => {
        if (pending.get(channel) === confirmed) pending.delete(channel)
      })
      pending.set(channel, confirmed)
      await confirmed
    },
    async unsubscribe(channel, handler) {
      const set = handlers.get(channel)
      if (!set || !set.delete(handler) || set.size) return
      handlers.delete(channel)
      await settle(sub.unsubscribe(fullPrefix + channel))
    },
    async close() {
      handlers.clear()
      await Promise.all([pub, sub].map((client) => client.quit().catch(() => client.disconnect())))
    },
  }
}
