import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { randomBytes, randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { WebSocketServer } from 'ws'
import { createMemoryBackplane } from './backplane-memory.ts'
import { Connection } from './connection.ts'
import { HubSession, createHubRuntime } from './dispatcher.ts'
import type { HubRuntime } from './dispatcher.ts'
import {
  bearerToken,
  checkOrigin,
  corsHeaders,
  preflightHeaders,
  rejectUpgrade,
  sendJson,
  sendText,
} from './http.ts'
import { PING_RECORD } from './protocol.ts'
import { HubRouter } from './routing.ts'
import { ServerSentEventsTransport } from './transport-sse.ts'
import { LongPollingTransport } from './transport-longpolling.ts'
import { WebSocketTransport } from './transport-websocket.ts'
import type {
  HubHandle,
  HubServer,
  HubServerOptions,
  HubUser,
  Logger,
  Timeouts,
  TransportName,
} from './types.ts'

export const DEFAULT_TIMEOUTS: Timeouts = {
  keepAliveMs: 15_000,
  clientTimeoutMs: 30_000,
  handshakeTimeoutMs: 15_000,
  pollTimeoutMs: 90_000,
  disconnectTimeoutMs: 15_000,
  closeTimeoutMs: 5_000,
  groupAckTimeoutMs: 30_000,
  clientResultTimeoutMs: 30_000,
}
const SHUTDOWN_WAIT_MS = 5_000
const HELD_POST_BYTES = 1 << 20
const ALL_TRANSPORTS: TransportName[] = ['WebSockets', 'ServerSentEvents', 'LongPolling']
const SESSIONS_CHANNEL = 'internal:sessions'
const silent: Logger = { info() {}, warn() {}, error() {} }
const ignoreError = (): void => {}

interface Route {
  hub: HubRuntime | null
  negotiate: boolean
  query: URLSearchParams
}

// 16 random bytes, base64url: the client puts the token into URLs without encoding it.
const newId = (): string => randomBytes(16).toString('base64url')

export function createHubServer(options: HubServerOptions): HubServer {
  const logger = options.logger ?? silent
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
  const basePath = '/' + (options.basePath ?? '/hubs').replace(/^\/+|\/+$/g, '')
  // Further paths of a hub (matched without regard to case, as ASP.NET routes are): `/chat` → chat.
  const aliases = new Map(
    Object.entries(options.aliases ?? {}).map(([path, hub]) => [
      '/' + path.replace(/^\/+|\/+$/g, '').toLowerCase(),
      hub.toLowerCase(),
    ]),
  )
  const maxRecordBytes = options.maxReceiveMessageSize ?? 32 * 1024
  const offered = ALL_TRANSPORTS.filter((t) => (options.transports ?? ALL_TRANSPORTS).includes(t))
  const allowedOrigins = new Set(options.allowedOrigins ?? [])
  const backplane = options.backplane ?? createMemoryBackplane()
  const ownsBackplane = !options.backplane
  const serverId = `${hostname()}_${randomUUID()}`
  const clientAddress = options.clientAddress ?? ((req: IncomingMessage) => req.socket.remoteAddress ?? '')

  const hubs = new Map<string, HubRuntime>()
  for (const definition of options.hubs) {
    const router = new HubRouter({
      hubName: definition.name,
      backplane,
      serverId,
      logger,
      ackTimeoutMs: timeouts.groupAckTimeoutMs,
    })
    const runtime = createHubRuntime(definition, router)
    if (hubs.has(runtime.key)) throw new Error(`Duplicate hub '${definition.name}'.`)
    hubs.set(runtime.key, runtime)
  }

  /** By connection token (the secret), which every transport request carries as `id`. */
  const connections = new Map<string, Connection>()
  const sessions = new Set<HubSession>()
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: Math.max(1 << 20, maxRecordBytes * 4),
  })
  let closing = false
  let closePromise: Promise<void> | null = null

  const onSessionMessage = (message: string): void => {
    try {
      // `s`: one session ended; `u`: every session of a user (an admin's suspension or deletion).
      const { o, s, u } = JSON.parse(message) as { o: string; s?: string; u?: number }
      if (o === serverId) return
      if (typeof s === 'string') closeSessionLocally(s)
      if (typeof u === 'number') closeUserLocally(u)
    } catch {
      logger.warn({}, 'malformed session revocation message')
    }
  }
  const ready = Promise.all([
    ...[...hubs.values()].map((hub) => hub.router.start()),
    backplane.subscribe(SESSIONS_CHANNEL, onSessionMessage),
  ]).then(() => undefined)
  // A failed subscription is logged; connections are still served (locally) rather than refused forever.
  const settledReady = ready.catch((error: unknown) =>
    logger.error({ err: error }, 'hub backplane subscriptions failed'),
  )

  // One timer for all connections (ASP.NET scans once a second); finer when tests shorten the timeouts.
  const enabled = [
    timeouts.keepAliveMs,
    timeouts.clientTimeoutMs,
    timeouts.handshakeTimeoutMs,
    timeouts.disconnectTimeoutMs,
  ].filter((v) => v > 0)
  const tickMs = Math.max(5, Math.min(1000, ...enabled.map((v) => v / 4)))
  const ticker = setInterval(tick, tickMs)
  ticker.unref()

  function tick(): void {
    const now = Date.now()
    for (const conn of connections.values()) {
      if (conn.finished) continue
      const transport = conn.transport
      if (!transport) {
        // Negotiated but never used, e.g. left behind by a client's transport fallback.
        if (now - conn.createdAt >= timeouts.disconnectTimeoutMs) conn.finish()
        continue
      }
      const idleSince = transport.idleSince?.()
      if (idleSince != null && now - idleSince >= timeouts.disconnectTimeoutMs) {
        conn.close()
        transport.terminate()
        continue
      }
      if (conn.closed) continue
      if (!conn.handshaken) {
        if (!conn.handshakeStarted && now - conn.attachedAt >= timeouts.handshakeTimeoutMs)
          conn.closeWithError('Handshake was canceled.', false)
        continue
      }
      // Long polling keeps itself alive: the client neither pings nor times out the server on it.
      if (transport.kind === 'LongPolling') continue
      if (timeouts.clientTimeoutMs > 0 && now - conn.lastReceived >= timeouts.clientTimeoutMs) {
        logger.info({ connectionId: conn.id, address: conn.address }, 'client timed out')
        conn.closeWithError('Connection closed with an error.', true)
        continue
      }
      if (timeouts.keepAliveMs > 0 && now - conn.lastSent >= timeouts.keepAliveMs) conn.writeRaw(PING_RECORD)
    }
  }

  function createConnection(hub: HubRuntime, user: HubUser | null, req: IncomingMessage): Connection {
    const conn = new Connection({
      id: newId(),
      token: newId(),
      hubKey: hub.key,
      user,
      maxRecordBytes,
      address: clientAddress(req),
    })
    const session = new HubSession(
      conn,
      hub,
      logger,
      () => {
        connections.delete(conn.token)
        sessions.delete(session)
      },
      timeouts.clientResultTimeoutMs,
    )
    conn.hooks = session
    connections.set(conn.token, conn)
    sessions.add(session)
    return conn
  }

  function closeSessionLocally(sessionId: string): void {
    for (const conn of connections.values()) {
      if (conn.user?.sessionId === sessionId) conn.closeWithError('The session has ended.', false)
    }
  }

  function closeUserLocally(userId: number): void {
    for (const conn of connections.values()) {
      if (conn.user?.userId === userId) conn.closeWithError('The session has ended.', false)
    }
  }

  /** The hub a path names, and what follows it: under basePath (`/hubs/chat/negotiate`) or at an alias (`/chat/negotiate`). */
  function hubPath(path: string): string[] | null {
    if (path === basePath || path.startsWith(basePath + '/'))
      return path.slice(basePath.length + 1).split('/')
    const lower = path.toLowerCase()
    for (const [alias, hub] of aliases) {
      if (lower === alias) return [hub]
      if (lower.startsWith(alias + '/')) return [hub, ...path.slice(alias.length + 1).split('/')]
    }
    return null
  }

  function route(rawUrl: string | undefined): Route | null {
    const url = URL.parse(rawUrl ?? '/', 'http://localhost')
    if (!url) return null
    const parts = hubPath(url.pathname.replace(/\/+$/, ''))
    if (!parts) return null
    const hub = hubs.get(parts[0].toLowerCase()) ?? null
    const negotiate = parts.length === 2 && parts[1] === 'negotiate'
    if (parts.length > 2 || (parts.length === 2 && !negotiate))
      return { hub: null, negotiate: false, query: url.searchParams }
    return { hub, negotiate, query: url.searchParams }
  }

  /** The `access_token` query form is only honoured where headers cannot be set: GET and upgrade. */
  function authenticate(
    req: IncomingMessage,
    query: URLSearchParams,
    queryTokenAllowed: boolean,
  ): Promise<HubUser | null> {
    const token = bearerToken(req) ?? (queryTokenAllowed ? query.get('access_token') : null)
    return options.authenticate(req, token || null)
  }

  type Lookup = { ok: true; conn: Connection } | { ok: false; status: number; text: string }

  async function lookup(
    req: IncomingMessage,
    hub: HubRuntime,
    query: URLSearchParams,
    queryTokenAllowed: boolean,
  ): Promise<Lookup> {
    const token = query.get('id')
    if (!token) return { ok: false, status: 400, text: 'Connection ID required' }
    const conn = connections.get(token)
    if (!conn || conn.hubKey !== hub.key || conn.finished)
      return { ok: false, status: 404, text: 'No Connection with that ID' }
    if (conn.user) {
      // Every request must come from the user the connection was negotiated for.
      const user = await authenticate(req, query, queryTokenAllowed)
      if (!user) return { ok: false, status: 401, text: 'Unauthorized' }
      if (user.userId !== conn.user.userId || user.sessionId !== conn.user.sessionId)
        return { ok: false, status: 403, text: 'Forbidden' }
      if (conn.finished) return { ok: false, status: 404, text: 'No Connection with that ID' }
    }
    return { ok: true, conn }
  }

  async function negotiate(
    req: IncomingMessage,
    res: ServerResponse,
    hub: HubRuntime,
    query: URLSearchParams,
  ): Promise<void> {
    req.resume()
    if (closing) return sendText(res, 503, 'The server is shutting down.')
    const user = await authenticate(req, query, false)
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
    await settledReady
    const conn = createConnection(hub, user, req)
    sendJson(res, {
      negotiateVersion: 1,
      connectionId: conn.id,
      connectionToken: conn.token,
      availableTransports: offered.map((transport) => ({
        transport,
        // EventSource carries text only.
        transferFormats: transport === 'ServerSentEvents' ? ['Text'] : ['Text', 'Binary'],
      })),
    })
  }

  async function serveEventStream(
    req: IncomingMessage,
    res: ServerResponse,
    hub: HubRuntime,
    query: URLSearchParams,
  ): Promise<void> {
    if (!offered.includes('ServerSentEvents')) return sendText(res, 404, 'Not Found')
    const found = await lookup(req, hub, query, true)
    if (!found.ok) return sendText(res, found.status, found.text)
    const conn = found.conn
    if (conn.transport?.kind === 'ServerSentEvents')
      return sendText(res, 409, 'An SSE request is already active for this connection.')
    if (conn.transport || conn.upgrading) return sendText(res, 400, 'Cannot change transports mid-connection')
    if (conn.closed) return sendText(res, 404, 'No Connection with that ID')
    conn.attach(new ServerSentEventsTransport(res, conn))
  }

  async function servePoll(
    req: IncomingMessage,
    res: ServerResponse,
    hub: HubRuntime,
    query: URLSearchParams,
  ): Promise<void> {
    if (!offered.includes('LongPolling')) return sendText(res, 404, 'Not Found')
    const found = await lookup(req, hub, query, true)
    if (!found.ok) return sendText(res, found.status, found.text)
    const conn = found.conn
    const transport = conn.transport
    if (!transport) {
      if (conn.upgrading) return sendText(res, 400, 'Cannot change transports mid-connection')
      if (conn.closed) return sendText(res, 404, 'No Connection with that ID')
      // The first poll only activates the connection and must return at once: start() waits for it.
      conn.attach(new LongPollingTransport(conn, timeouts.pollTimeoutMs))
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
    req: IncomingMessage,
    res: ServerResponse,
    hub: HubRuntime,
    query: URLSearchParams,
  ): Promise<void> {
    const found = await lookup(req, hub, query, false)
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
    req: IncomingMessage,
    res: ServerResponse,
    hub: HubRuntime,
    query: URLSearchParams,
  ): Promise<void> {
    req.resume()
    const found = await lookup(req, hub, query, false)
    if (!found.ok) return sendText(res, found.status, found.text)
    const transport = found.conn.transport
    if (!(transport instanceof LongPollingTransport))
      return sendText(res, 400, 'Cannot terminate this connection using the DELETE endpoint.')
    found.conn.close()
    transport.terminate()
    res.writeHead(202, { 'Content-Length': 0 })
    res.end()
  }

  async function serveHttp(req: IncomingMessage, res: ServerResponse, target: Route): Promise<void> {
    const origin = checkOrigin(req, allowedOrigins)
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
    const { hub, query } = target
    if (!hub) {
      req.resume()
      return sendText(res, 404, 'Not Found')
    }
    if (target.negotiate) {
      if (req.method === 'POST') return negotiate(req, res, hub, query)
      req.resume()
      return sendText(res, 405, 'Method Not Allowed', { Allow: 'POST' })
    }
    switch (req.method) {
      case 'GET':
        req.resume()
        return String(req.headers.accept ?? '').includes('text/event-stream')
          ? serveEventStream(req, res, hub, query)
          : servePoll(req, res, hub, query)
      case 'POST':
        return receiveSend(req, res, hub, query)
      case 'DELETE':
        return terminatePoll(req, res, hub, query)
      default:
        req.resume()
        return sendText(res, 405, 'Method Not Allowed', { Allow: 'GET, POST, DELETE' })
    }
  }

  async function serveUpgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    target: Route,
  ): Promise<void> {
    if (!checkOrigin(req, allowedOrigins).allowed) return rejectUpgrade(socket, 403, 'Origin not allowed')
    const { hub, query } = target
    if (!hub || target.negotiate || !offered.includes('WebSockets')) return rejectUpgrade(socket, 404)
    if (closing) return rejectUpgrade(socket, 503)
    let conn: Connection
    if (query.get('id')) {
      const existing = connections.get(query.get('id')!)
      if (existing && !existing.finished) {
        if (existing.transport?.kind === 'WebSockets' || existing.upgrading) return rejectUpgrade(socket, 409)
        if (existing.transport) return rejectUpgrade(socket, 400, 'Cannot change transports mid-connection')
      }
      if (existing) existing.upgrading = true
      let found: Lookup
      try {
        found = await lookup(req, hub, query, true)
      } finally {
        if (existing) existing.upgrading = false
      }
      if (!found.ok) return rejectUpgrade(socket, found.status, found.text)
      conn = found.conn
      if (conn.transport || conn.closed) return rejectUpgrade(socket, 409)
    } else {
      // No id: the client skipped negotiation, so the connection is created here (WebSockets only).
      const user = await authenticate(req, query, true)
      if (hub.definition.requireUser && !user)
        return rejectUpgrade(socket, 401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer' })
      await settledReady
      conn = createConnection(hub, user, req)
    }
    conn.upgrading = true
    wss.handleUpgrade(req, socket, head, (ws) => {
      conn.upgrading = false
      if (conn.closed || conn.transport) {
        ws.close(1000)
        return
      }
      conn.attach(new WebSocketTransport(ws, conn, timeouts.closeTimeoutMs, logger))
    })
  }

  const server: HubServer = {
    ready,

    owns(rawUrl) {
      return route(rawUrl) !== null
    },

    connectionCounts() {
      const counts: Record<string, number> = {}
      for (const conn of connections.values()) {
        const kind = conn.transport?.kind ?? 'negotiated'
        counts[kind] = (counts[kind] ?? 0) + 1
      }
      return counts
    },

    handleRequest(req, res) {
      const target = route(req.url)
      if (!target) return false
      serveHttp(req, res, target).catch((error: unknown) => {
        // Only the path: the query holds the connection token and possibly an access token.
        logger.error({ err: error, path: req.url?.split('?')[0] }, 'hub request failed')
        sendText(res, 500, 'Internal Server Error')
      })
      return true
    },

    handleUpgrade(req, socket, head) {
      const target = route(req.url)
      if (!target) return false
      // A module-level no-op: a closure made here would share this call's scope and keep the
      // upgrade request (its headers) alive for as long as the socket lives.
      socket.on('error', ignoreError)
      const path = req.url?.split('?')[0]
      serveUpgrade(req, socket, head, target).catch((error: unknown) => {
        logger.error({ err: error, path }, 'hub upgrade failed')
        rejectUpgrade(socket, 500)
      })
      return true
    },

    get(hubName: string): HubHandle {
      const hub = hubs.get(hubName.toLowerCase())
      if (!hub) throw new Error(`Unknown hub '${hubName}'.`)
      return hub.router.handle
    },

    async disconnectSession(sessionId) {
      closeSessionLocally(sessionId)
      await backplane.publish(SESSIONS_CHANNEL, JSON.stringify({ o: serverId, s: sessionId }))
    },

    async disconnectUser(userId) {
      closeUserLocally(userId)
      await backplane.publish(SESSIONS_CHANNEL, JSON.stringify({ o: serverId, u: userId }))
    },

    stats() {
      let count = 0
      for (const conn of connections.values()) if (!conn.finished) count++
      return { connections: count }
    },

    close() {
      closePromise ??= shutdown()
      return closePromise
    },
  }

  /** Close{allowReconnect} (no error: nothing went wrong) to everyone, wait up to 5 s for transports and onDisconnected, then cut the rest. */
  async function shutdown(): Promise<void> {
    closing = true
    // The ticker keeps running meanwhile, so long-polling clients that stopped polling still time out.
    for (const conn of connections.values()) conn.closeToReconnect()
    const pending = [...sessions].map((s) => s.done)
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      Promise.all(pending),
      new Promise<void>(
        (resolve) => (timer = setTimeout(resolve, Math.min(SHUTDOWN_WAIT_MS, timeouts.closeTimeoutMs))),
      ),
    ])
    clearTimeout(timer)
    clearInterval(ticker)
    for (const conn of connections.values()) {
      conn.transport?.terminate()
      conn.finish()
    }
    await Promise.all([...hubs.values()].map((hub) => hub.router.stop()))
    await backplane.unsubscribe(SESSIONS_CHANNEL, onSessionMessage).catch(() => {})
    if (ownsBackplane) await backplane.close()
    wss.close()
  }
  return server
}
