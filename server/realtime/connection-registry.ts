import type { IncomingMessage } from 'node:http'
import { randomBytes } from 'node:crypto'
import { Connection } from './connection.ts'
import { HubSession } from './dispatcher.ts'
import type { HubRuntime } from './hub-runtime.ts'
import type { HubUser, Logger } from './types.ts'

// The connections this instance holds, by connection token (the secret, which every transport
// request carries as `id`), and the hub session of each.

// 16 random bytes, base64url: the client puts the token into URLs without encoding it.
const newId = (): string => randomBytes(16).toString('base64url')

export function createConnectionRegistry(settings: {
  logger: Logger
  maxRecordBytes: number
  clientResultTimeoutMs: number
  clientAddress: (req: IncomingMessage) => string
}) {
  const connections = new Map<string, Connection>()
  const sessions = new Set<HubSession>()

  function create(hub: HubRuntime, user: HubUser | null, req: IncomingMessage): Connection {
    const conn = new Connection({
      id: newId(),
      token: newId(),
      hubKey: hub.key,
      user,
      maxRecordBytes: settings.maxRecordBytes,
      address: settings.clientAddress(req),
    })
    const session = new HubSession(
      conn,
      hub,
      settings.logger,
      () => {
        connections.delete(conn.token)
        sessions.delete(session)
      },
      settings.clientResultTimeoutMs,
    )
    conn.hooks = session
    connections.set(conn.token, conn)
    sessions.add(session)
    return conn
  }

  /** Closes, with a Close that forbids reconnecting, every connection whose user matches. */
  function closeWhere(matches: (user: HubUser) => boolean): void {
    for (const conn of connections.values()) {
      if (conn.user && matches(conn.user)) conn.closeWithError('The session has ended.', false)
    }
  }

  return {
    create,
    get: (token: string) => connections.get(token),
    all: () => connections.values(),
    /** Settles once each session's transport is done and its onDisconnected has run. */
    sessionsDone: () => [...sessions].map((s) => s.done),
    closeSession: (sessionId: string) => closeWhere((user) => user.sessionId === sessionId),
    closeUser: (userId: number) => closeWhere((user) => user.userId === userId),
    /** Connections open now, by transport (for /metrics). */
    counts() {
      const counts: Record<string, number> = {}
      for (const conn of connections.values()) {
        const kind = conn.transport?.kind ?? 'negotiated'
        counts[kind] = (counts[kind] ?? 0) + 1
      }
      return counts
    },
    /** Connections not finished yet. */
    open() {
      let count = 0
      for (const conn of connections.values()) if (!conn.finished) count++
      return count
    },
  }
}

export type ConnectionRegistry = ReturnType<typeof createConnectionRegistry>
