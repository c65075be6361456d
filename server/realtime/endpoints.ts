import type { IncomingMessage, ServerResponse } from 'node:http'
import { checkOrigin, corsHeaders, preflightHeaders, sendJson, sendText } from './http.ts'
import type { HubRuntime } from './hub-runtime.ts'
import type { Route } from './hub-paths.ts'
import { authenticate, lookup, type HubServerContext } from './server-context.ts'
import { ServerSentEventsTransport } from './transport-sse.ts'
import { LongPollingTransport } from './transport-longpolling.ts'

// The HTTP endpoints of a hub: negotiate (POST …/negotiate), and for a negotiated connection the
// event stream (GET with Accept: text/event-stream), polls (GET), sends (POST) and the end of a
// long-polling connection (DELETE).

const HELD_POST_BYTES = 1 << 20

async function negotiate(
  ctx: HubServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: { hub: HubRuntime; query: URLSearchParams },
): Promise<void> {
  const { hub, query } = target
  req.resume()
  if (ctx.closing()) return sendText(res, 503, 'The server is shutting down.')
  const user = await authenticate(ctx, req, query, false)
  if (hub.definition.requireUser && !user)
    return sendText(res, 401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer' })
  const requested = query.get('negotiateVersion')
  if (requested !== null && !/^\d+$/.test(requested)) {
    return sendJson(res, { error: `The client requested an invalid protocol version '${requested}'` })
  }
  // Version 0 would make the public connection id double as the secret token, so it is refused.
  const version = requested === null ? 0 : Number(requested)
  if (version < 1)
    return sendJson(res, {
      error: `The client requested version '${version}', but the server does not support this version.`,
    })
  await ctx.ready
  const conn = ctx.connections.create(hub, user, req)
  sendJson(res, {
    negotiateVersion: 1,
    connectionId: conn.id,
    connectionToken: conn.token,
    availableTransports: ctx.offered.map((transport) => ({
      transport,
      // EventSource carries text only.
      transferFormats: transport === 'ServerSentEvents' ? ['Text'] : ['Text', 'Binary'],
    })),
  })
}

async function serveEventStream(
  ctx: HubServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: { hub: HubRuntime; query: URLSearchParams },
): Promise<void> {
  if (!ctx.offered.includes('ServerSentEvents')) return sendText(res, 404, 'Not Found')
  const found = await lookup(ctx, req, target.hub, target.query, true)
  if (!found.ok) return sendText(res, found.status, found.text)
  const conn = found.conn
  if (conn.transport?.kind === 'ServerSentEvents')
    return sendText(res, 409, 'An SSE request is already active for this connection.')
  if (conn.transport || conn.upgrading) return sendText(res, 400, 'Cannot change transports mid-connection')
  if (conn.closed) return sendText(res, 404, 'No Connection with that ID')
  conn.attach(new ServerSentEventsTransport(res, conn))
}

async function servePoll(
  ctx: HubServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: { hub: HubRuntime; query: URLSearchParams },
): Promise<void> {
  if (!ctx.offered.includes('LongPolling')) return sendText(res, 404, 'Not Found')
  const found = await lookup(ctx, req, target.hub, target.query, true)
  if (!found.ok) return sendText(res, found.status, found.text)
  const conn = found.conn
  const transport = conn.transport
  if (!transport) {
    if (conn.upgrading) return sendText(res, 400, 'Cannot change transports mid-connection')
    if (conn.closed) return sendText(res, 404, 'No Connection with that ID')
    // The first poll only activates the connection and must return at once: start() waits for it.
    conn.attach(new LongPollingTransport(conn, ctx.timeouts.pollTimeoutMs))
    res.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': 0,
      'Cache-Control': 'no-cache, no-store',
    })
    res.end()
    return
  }
  if (!(transport instanceof LongPollingTransport))
    return sendText(res, 400, 'Cannot change transports mid-connection')
  transport.handlePoll(res)
}

async function receiveSend(
  ctx: HubServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: { hub: HubRuntime; query: URLSearchParams },
): Promise<void> {
  const found = await lookup(ctx, req, target.hub, target.query, false)
  if (!found.ok) {
    req.resume()
    return sendText(res, found.status, found.text)
  }
  const conn = found.conn
  const reject = (status: number, text: string): void => {
    req.resume()
    sendText(res, status, text)
  }
  if (conn.transport?.kind === 'WebSockets')
    return reject(405, 'POST requests are not allowed for WebSocket connections.')
  if (!conn.transport) return reject(400, 'The connection has no active transport.')
  if (conn.closed) return reject(404, 'No Connection with that ID')
  // One body at a time, so a record split across two POSTs is reassembled in order.
  if (conn.posting) return reject(409, 'Another send request is in progress.')
  conn.posting = true
  // Records are acted on after the 200 goes out. The client awaits its POST before it awaits the
  // handshake reply, so a handshake error arriving first would surface as an unhandled rejection.
  // Large bodies are dispatched as they arrive so memory stays bounded.
  let held: string[] = []
  let heldBytes = 0
  try {
    for await (const chunk of req) {
      conn.receive(chunk as Buffer, held)
      heldBytes += (chunk as Buffer).length
      if (heldBytes > HELD_POST_BYTES) {
        conn.deliver(held)
        held = []
        heldBytes = 0
      }
    }
  } catch {
    // The client aborted the body; whole records that arrived are still processed.
    conn.posting = false
    conn.deliver(held)
    return
  }
  conn.posting = false
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 0 })
  res.end()
  setImmediate(() => conn.deliver(held))
}

async function terminatePoll(
  ctx: HubServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: { hub: HubRuntime; query: URLSearchParams },
): Promise<void> {
  req.resume()
  const found = await lookup(ctx, req, target.hub, target.query, false)
  if (!found.ok) return sendText(res, found.status, found.text)
  const transport = found.conn.transport
  if (!(transport instanceof LongPollingTransport))
    return sendText(res, 400, 'Cannot terminate this connection using the DELETE endpoint.')
  found.conn.close()
  transport.terminate()
  res.writeHead(202, { 'Content-Length': 0 })
  res.end()
}

/** Answers a hub's HTTP request: the Origin check and CORS first, then the endpoint its path and method name. */
export async function serveHttp(
  ctx: HubServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  route: Route,
): Promise<void> {
  const origin = checkOrigin(req, ctx.allowedOrigins)
  if (!origin.allowed) {
    req.resume()
    return sendText(res, 403, 'Origin not allowed')
  }
  if (req.method === 'OPTIONS') {
    req.resume()
    res.writeHead(204, origin.corsOrigin ? preflightHeaders(req, origin.corsOrigin) : {})
    res.end()
    return
  }
  if (origin.corsOrigin)
    for (const [name, value] of Object.entries(corsHeaders(origin.corsOrigin))) res.setHeader(name, value)
  const { hub, query } = route
  if (!hub) {
    req.resume()
    return sendText(res, 404, 'Not Found')
  }
  const target = { hub, query }
  if (route.negotiate) {
    if (req.method === 'POST') return negotiate(ctx, req, res, target)
    req.resume()
    return sendText(res, 405, 'Method Not Allowed', { Allow: 'POST' })
  }
  switch (req.method) {
    case 'GET':
      req.resume()
      return String(req.headers.accept ?? '').includes('text/event-stream')
        ? serveEventStream(ctx, req, res, target)
        : servePoll(ctx, req, res, target)
    case 'POST':
      return receiveSend(ctx, req, res, target)
    case 'DELETE':
      return terminatePoll(ctx, req, res, target)
    default:
      req.resume()
      return sendText(res, 405, 'Method Not Allowed', { Allow: 'GET, POST, DELETE' })
  }
}
