import type { ConnectionRegistry } from './connection-registry.ts'
import type { Backplane, Logger } from './types.ts'

// Ending a session's (or a user's) connections on every instance: closed here at once, and
// published on the backplane for the other instances to close theirs.

const SESSIONS_CHANNEL = 'internal:sessions'

export function createSessionRevocation(deps: {
  backplane: Backplane
  serverId: string
  connections: ConnectionRegistry
  logger: Logger
}) {
  const { backplane, serverId, connections, logger } = deps
  const onMessage = (message: string): void => {
    try {
      // `s`: one session ended; `u`: every session of a user (an admin's suspension or deletion).
      const { o, s, u } = JSON.parse(message) as { o: string; s?: string; u?: number }
      if (o === serverId) return
      if (typeof s === 'string') connections.closeSession(s)
      if (typeof u === 'number') connections.closeUser(u)
    } catch {
      logger.warn({}, 'malformed session revocation message')
    }
  }
  return {
    subscribe: () => backplane.subscribe(SESSIONS_CHANNEL, onMessage),
    unsubscribe: () => backplane.unsubscribe(SESSIONS_CHANNEL, onMessage),
    async disconnectSession(sessionId: string) {
      connections.closeSession(sessionId)
      await backplane.publish(SESSIONS_CHANNEL, JSON.stringify({ o: serverId, s: sessionId }))
    },
    async disconnectUser(userId: number) {
      connections.closeUser(userId)
      await backplane.publish(SESSIONS_CHANNEL, JSON.stringify({ o: serverId, u: userId }))
    },
  }
}
