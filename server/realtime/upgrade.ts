import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Connection } from './connection.ts'
import { checkOrigin, rejectUpgrade } from './http.ts'
import type { Route } from './hub-paths.ts'
import { authenticate, lookup, type HubServerContext, type Lookup } from './server-context.ts'
import { WebSocketTransport } from './transport-websocket.ts'

// A WebSocket upgrade: for a negotiated connection (its `id`), or, without one, a connection made
// here (the client skipped negotiation; WebSockets only).

async function negotiatedConnection(
  ctx: HubServerContext,
  req: IncomingMessage,
  socket: Duplex,
  route: Route & { hub: NonNullable<Route['hub']> },
): Promise<Connection | null> {
  const { hub, query } = route
  const refused = (status: number, text?: string): null => {
    rejectUpgrade(socket, status, text)
    return null
  }
  const existing = ctx.connections.get(query.get('id')!)
  if (existing && !existing.finished) {
    if (existing.transport?.kind === 'WebSockets' || existing.upgrading) return refused(409)
    if (existing.transport) return refused(400, 'Cannot change transports mid-connection')
  }
  if (existing) existing.upgrading = true
  let found: Lookup
  try {
    found = await lookup(ctx, req, hub, query, true)
  } finally {
    if (existing) existing.upgrading = false
  }
  if (!found.ok) return refused(found.status, found.text)
  if (found.conn.transport || found.conn.closed) return refused(409)
  return found.conn
}

export async function serveUpgrade(
  ctx: HubServerContext,
  req: IncomingMessage,
  upgrade: { socket: Duplex; head: Buffer },
  route: Route,
): Promise<void> {
  const { socket, head } = upgrade
  if (!checkOrigin(req, ctx.allowedOrigins).allowed) return rejectUpgrade(socket, 403, 'Origin not allowed')
  const { hub, query } = route
  if (!hub || route.negotiate || !ctx.offered.includes('WebSockets')) return rejectUpgrade(socket, 404)
  if (ctx.closing()) return rejectUpgrade(socket, 503)
  let conn: Connection
  if (query.get('id')) {
    const found = await negotiatedConnection(ctx, req, socket, { ...route, hub })
    if (!found) return
    conn = found
  } else {
    const user = await authenticate(ctx, req, query, true)
    if (hub.definition.requireUser && !user)
      return rejectUpgrade(socket, 401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer' })
    await ctx.ready
    conn = ctx.connections.create(hub, user, req)
  }
  conn.upgrading = true
  ctx.wss.handleUpgrade(req, socket, head, (ws) => {
    conn.upgrading = false
    if (conn.closed || conn.transport) {
      ws.close(1000)
      return
    }
    conn.attach(new WebSocketTransport(ws, conn, ctx.timeouts.closeTimeoutMs, ctx.logger))
  })
}
