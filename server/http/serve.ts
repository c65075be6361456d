import http from 'node:http'
import { randomUUID } from 'node:crypto'
import compression from 'compression'
import { sendResponse } from '@remix-run/node-fetch-server'
import type { Config } from '../config.ts'
import type { Db } from '../db/database.ts'
import type { Logger } from '../log.ts'
import type { ApiHandler } from '../api/handler.ts'
import type { WebApp } from '../app-loader.ts'
import type { HubsRuntime } from '../hubs.ts'
import { rejectUpgrade } from '../realtime/http.ts'
import { readiness } from './health.ts'
import type { Metrics } from './metrics.ts'
import type { Destination } from './destination.ts'
import { pathOf, type RequestGuard } from './request-guard.ts'
import { setSecurityHeaders } from './security-headers.ts'

// The way of every request through the http server: an id, the security headers, /metrics, then
// the request guard (server/http/request-guard.ts); what it admits goes to health, a hub, the API
// or the web app (static files, then React Router's pages).

export interface ServeDeps {
  config: Config
  log: Logger
  database: Db
  api: ApiHandler
  hubs: HubsRuntime
  app: WebApp
  guard: RequestGuard
  metrics: Metrics
  /** Test-only routes (tests/support/e2e-hooks.ts): true when one answered. */
  e2e?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean
}

/** The http server, with its request listener and the events Node raises outside one. */
export function createHttpServer(deps: ServeDeps) {
  const { guard, hubs } = deps
  const listener = createListener(deps)
  // Only a WebSocket request to a hub is an upgrade; any other Upgrade header is served as a plain request.
  const server = http.createServer(
    {
      shouldUpgradeCallback: (req) =>
        hubs.server.owns(req.url) && String(req.headers.upgrade).toLowerCase() === 'websocket',
    },
    listener,
  )
  // 100-continue is answered once the guard admits the request, so a refused body is never sent.
  // Senders too slow with their headers or their whole request are ended by Node's own
  // headersTimeout and requestTimeout (answered 408 by the guard's clientError).
  server.on('checkContinue', listener)
  server.on('clientError', guard.clientError)
  server.on('connect', (req, socket) => guard.refuseUpgrade(req, socket) || socket.destroy())
  server.on('upgrade', (req, socket, head) => {
    if (guard.refuseUpgrade(req, socket)) return
    if (!hubs.server.handleUpgrade(req, socket, head)) rejectUpgrade(socket, 404)
  })
  return server
}

function createListener(deps: ServeDeps) {
  const { config, guard, metrics } = deps
  const compress = compression({
    filter: (req, res) =>
      !String(res.getHeader('content-type') ?? '').startsWith('text/event-stream') &&
      compression.filter(req, res),
  })
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const requestId = safeRequestId(req.headers['x-request-id'])
    req.headers['x-request-id'] = requestId
    res.setHeader('x-request-id', requestId)
    setSecurityHeaders(res, config.isProduction)
    if (metrics.owns(req.url ?? '/')) return void metrics.serve(req, res)
    const seen: { destination: Destination | null } = { destination: null }
    recordWhenAnswered(deps, req, res, seen)
    const destination = (seen.destination = guard.admit(req, res, requestId))
    if (!destination) return
    guard.run(req, res, () => dispatch(deps, { req, res, requestId, destination, compress }))
  }
}

/** Every answer is counted in /metrics; pages (the API logs its own calls) are logged too. */
function recordWhenAnswered(
  { log, metrics, guard }: ServeDeps,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  seen: { destination: Destination | null },
) {
  const started = performance.now()
  const path = pathOf(req)
  res.once('finish', () => {
    const ms = performance.now() - started
    if (seen.destination !== 'api' && !guard.refused(req))
      log.info(
        {
          requestId: req.headers['x-request-id'],
          method: req.method,
          path,
          status: res.statusCode,
          ms: Math.round(ms),
        },
        'http',
      )
    metrics.observe(seen.destination ?? 'refused', req.method ?? 'GET', path, res.statusCode, ms / 1000)
  })
}

interface Admitted {
  req: http.IncomingMessage
  res: http.ServerResponse
  requestId: string
  destination: Destination
  compress: ReturnType<typeof compression>
}

function dispatch(deps: ServeDeps, admitted: Admitted) {
  const { req, res, destination } = admitted
  if (destination === 'health') return answerHealth(deps.database, req, res)
  if (deps.e2e?.(req, res)) return
  // Hub traffic is never compressed: Server-Sent Events must reach the client as written.
  if (deps.hubs.server.handleRequest(req, res)) return
  admitted.compress(req as never, res as never, () =>
    deps.guard.run(req, res, () =>
      destination === 'api' ? answerApi(deps, admitted) : answerPage(deps, admitted),
    ),
  )
}

function answerHealth(database: Db, req: http.IncomingMessage, res: http.ServerResponse) {
  if (!pathOf(req).startsWith('/readyz'))
    return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
  return readiness(database).then((r) =>
    res.writeHead(r.ok ? 200 : 503, { 'content-type': 'text/plain' }).end(r.detail),
  )
}

function answerApi(deps: ServeDeps, { req, res, requestId }: Admitted) {
  const request = deps.guard.toRequest(req, res)
  const ip = deps.guard.clientAddress(req)
  return respond(res, request, () => deps.api(request, { requestId, ip }))
}

function answerPage(deps: ServeDeps, { req, res, requestId }: Admitted) {
  deps.app.serveStatic(req, res, () =>
    deps.guard.run(req, res, () => {
      const request = deps.guard.toRequest(req, res)
      const clientIp = deps.guard.clientAddress(req)
      return respond(res, request, () => deps.app.handle(request, { requestId, clientIp }))
    }),
  )
}

/** Sends a handler's answer, unless the request was aborted or the guard has answered it already (a body past its limit). */
async function respond(res: http.ServerResponse, request: Request, handle: () => Promise<Response>) {
  let response: Response
  try {
    response = await handle()
  } catch (error) {
    if (request.signal.aborted) return
    throw error
  }
  if (res.headersSent || request.signal.aborted) return void response.body?.cancel().catch(() => {})
  // An answer given before the request's body came whole (a 401 or a 403 that never reads it) ends
  // the connection once the rest is dropped (request-guard.ts), so it says so: a client that kept
  // the connection would lose its next request.
  if (!res.req.complete) res.setHeader('connection', 'close')
  await sendResponse(res, response)
}

function safeRequestId(value: string | string[] | undefined) {
  return typeof value === 'string' && /^[\w.-]{8,64}$/.test(value) ? value : randomUUID()
}
