import type { IncomingMessage } from 'node:http'
import type { WebSocketServer } from 'ws'
import type { Connection } from './connection.ts'
import type { ConnectionRegistry } from './connection-registry.ts'
import { bearerToken } from './http.ts'
import type { HubRuntime } from './hub-runtime.ts'
import type { Authenticate, HubUser, Logger, Timeouts, TransportName } from './types.ts'

// What the endpoints of one hub server share, and how a request finds its user and its connection.

export interface HubServerContext {
  authenticate: Authenticate
  logger: Logger
  timeouts: Timeouts
  /** Transports offered, in order. */
  offered: TransportName[]
  allowedOrigins: Set<string>
  connections: ConnectionRegistry
  wss: WebSocketServer
  /** Settles once the backplane subscriptions are in place (a failure was logged). */
  ready: Promise<unknown>
  /** True once close() began: new connections are refused. */
  closing(): boolean
}

/** The `access_token` query form is only honoured where headers cannot be set: GET and upgrade. */
export function authenticate(
  ctx: HubServerContext,
  req: IncomingMessage,
  query: URLSearchParams,
  queryTokenAllowed: boolean,
): Promise<HubUser | null> {
  const token = bearerToken(req) ?? (queryTokenAllowed ? query.get('access_token') : null)
  return ctx.authenticate(req, token || null)
}

export type Lookup = { ok: true; conn: Connection } | { ok: false; status: number; text: string }

/** The connection a request's `id` names, if it is this hub's, alive, and the request comes from its user. */
export async function lookup(
  ctx: HubServerContext,
  req: IncomingMessage,
  hub: HubRuntime,
  query: URLSearchParams,
  queryTokenAllowed: boolean,
): Promise<Lookup> {
  const token = query.get('id')
  if (!token) return { ok: false, status: 400, text: 'Connection ID required' }
  const conn = ctx.connections.get(token)
  if (!conn || conn.hubKey !== hub.key || conn.finished)
    return { ok: false, status: 404, text: 'No Connection with that ID' }
  if (conn.user) {
    // Every request must come from the user the connection was negotiated for.
    const user = await authenticate(ctx, req, query, queryTokenAllowed)
    if (!user) return { ok: false, status: 401, text: 'Unauthorized' }
    if (user.userId !== conn.user.userId || user.sessionId !== conn.user.sessionId)
      return { ok: false, status: 403, text: 'Forbidden' }
    if (conn.finished) return { ok: false, status: 404, text: 'No Connection with that ID' }
  }
  return { ok: true, conn }
}
