import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { WebSocketServer } from 'ws'
import { createMemoryBackplane } from './backplane-memory.ts'
import { createConnectionRegistry } from './connection-registry.ts'
import { serveHttp } from './endpoints.ts'
import { rejectUpgrade, sendText } from './http.ts'
import { createHubPaths, type Route } from './hub-paths.ts'
import { createHubRuntime, type HubRuntime } from './hub-runtime.ts'
import { startKeepAlive } from './keepalive.ts'
import { HubRouter } from './routing.ts'
import type { HubServerContext } from './server-context.ts'
import { createSessionRevocation } from './session-revocation.ts'
import { serveUpgrade } from './upgrade.ts'
import type {
  Backplane,
  HubDefinition,
  HubServer,
  HubServerOptions,
  Logger,
  Timeouts,
  TransportName,
} from './types.ts'

// The hub server: one per process, serving every hub's HTTP endpoints (endpoints.ts) and WebSocket
// upgrades (upgrade.ts), with the connections it holds (connection-registry.ts) kept alive by one
// timer (keepalive.ts).

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
const ALL_TRANSPORTS: TransportName[] = ['WebSockets', 'ServerSentEvents', 'LongPolling']
const silent: Logger = { info() {}, warn() {}, error() {} }
const ignoreError = (): void => {}

function createHubs(
  definitions: HubDefinition[],
  settings: { backplane: Backplane; serverId: string; logger: Logger; ackTimeoutMs: number },
) {
  const hubs = new Map<string, HubRuntime>()
  for (const definition of definitions) {
    const router = new HubRouter({ hubName: definition.name, ...settings })
    const runtime = createHubRuntime(definition, router)
    if (hubs.has(runtime.key)) throw new Error(`Duplicate hub '${definition.name}'.`)
    hubs.set(runtime.key, runtime)
  }
  return hubs
}

function handleRequest(ctx: HubServerContext, route: Route, req: IncomingMessage, res: ServerResponse) {
  serveHttp(ctx, req, res, route).catch((error: unknown) => {
    // Only the path: the query holds the connection token and possibly an access token.
    ctx.logger.error({ err: error, path: req.url?.split('?')[0] }, 'hub request failed')
    sendText(res, 500, 'Internal Server Error')
  })
}

function handleUpgrade(
  ctx: HubServerContext,
  route: Route,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
) {
  // A module-level no-op: a closure made here would share this call's scope and keep the
  // upgrade request (its headers) alive for as long as the socket lives.
  socket.on('error', ignoreError)
  const path = req.url?.split('?')[0]
  serveUpgrade(ctx, req, { socket, head }, route).catch((error: unknown) => {
    ctx.logger.error({ err: error, path }, 'hub upgrade failed')
    rejectUpgrade(socket, 500)
  })
}

/** Close{allowReconnect} (no error: nothing went wrong) to everyone, wait up to 5 s for transports and onDisconnected, then cut the rest. */
async function shutdown(
  ctx: HubServerContext,
  parts: { hubs: Map<string, HubRuntime>; ticker: NodeJS.Timeout; stopBackplane: () => Promise<void> },
): Promise<void> {
  // The ticker keeps running meanwhile, so long-polling clients that stopped polling still time out.
  for (const conn of ctx.connections.all()) conn.closeToReconnect()
  const pending = ctx.connections.sessionsDone()
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    Promise.all(pending),
    new Promise<void>(
      (resolve) => (timer = setTimeout(resolve, Math.min(SHUTDOWN_WAIT_MS, ctx.timeouts.closeTimeoutMs))),
    ),
  ])
  clearTimeout(timer)
  clearInterval(parts.ticker)
  for (const conn of ctx.connections.all()) {
    conn.transport?.terminate()
    conn.finish()
  }
  await Promise.all([...parts.hubs.values()].map((hub) => hub.router.stop()))
  await parts.stopBackplane()
  ctx.wss.close()
}

export function createHubServer(options: HubServerOptions): HubServer {
  const logger = options.logger ?? silent
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
  const maxRecordBytes = options.maxReceiveMessageSize ?? 32 * 1024
  const backplane = options.backplane ?? createMemoryBackplane()
  const serverId = `${hostname()}_${randomUUID()}`
  const hubs = createHubs(options.hubs, {
    backplane,
    serverId,
    logger,
    ackTimeoutMs: timeouts.groupAckTimeoutMs,
  })
  const route = createHubPaths({ basePath: options.basePath, aliases: options.aliases, hubs })
  const connections = createConnectionRegistry({
    logger,
    maxRecordBytes,
    clientResultTimeoutMs: timeouts.clientResultTimeoutMs,
    clientAddress: options.clientAddress ?? ((req: IncomingMessage) => req.socket.remoteAddress ?? ''),
  })
  const revocation = createSessionRevocation({ backplane, serverId, connections, logger })
  const ready = Promise.all([
    ...[...hubs.values()].map((hub) => hub.router.start()),
    revocation.subscribe(),
  ]).then(() => undefined)
  let closing = false
  let closePromise: Promise<void> | null = null
  const ctx: HubServerContext = {
    authenticate: options.authenticate,
    logger,
    timeouts,
    offered: ALL_TRANSPORTS.filter((t) => (options.transports ?? ALL_TRANSPORTS).includes(t)),
    allowedOrigins: new Set(options.allowedOrigins ?? []),
    connections,
    wss: new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      maxPayload: Math.max(1 << 20, maxRecordBytes * 4),
    }),
    // A failed subscription is logged; connections are still served (locally) rather than refused forever.
    ready: ready.catch((error: unknown) =>
      logger.error({ err: error }, 'hub backplane subscriptions failed'),
    ),
    closing: () => closing,
  }
  const ticker = startKeepAlive(connections, timeouts, logger)
  const stopBackplane = async () => {
    await revocation.unsubscribe().catch(() => {})
    // A backplane passed in belongs to the caller.
    if (!options.backplane) await backplane.close()
  }
  return {
    ready,
    owns: (rawUrl) => route(rawUrl) !== null,
    connectionCounts: () => connections.counts(),
    handleRequest(req, res) {
      const target = route(req.url)
      if (target) handleRequest(ctx, target, req, res)
      return target !== null
    },
    handleUpgrade(req, socket, head) {
      const target = route(req.url)
      if (target) handleUpgrade(ctx, target, req, socket, head)
      return target !== null
    },
    get(hubName: string) {
      const hub = hubs.get(hubName.toLowerCase())
      if (!hub) throw new Error(`Unknown hub '${hubName}'.`)
      return hub.router.handle
    },
    disconnectSession: (sessionId) => revocation.disconnectSession(sessionId),
    disconnectUser: (userId) => revocation.disconnectUser(userId),
    stats: () => ({ connections: connections.open() }),
    close() {
      closing = true
      closePromise ??= shutdown(ctx, { hubs, ticker, stopBackplane })
      return closePromise
    },
  }
}
