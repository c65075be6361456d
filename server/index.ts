import http from 'node:http'
import { randomUUID } from 'node:crypto'
import compression from 'compression'
import { createRequest, sendResponse } from '@remix-run/node-fetch-server'
import { loadConfig, ConfigError, type Config } from './config.ts'
import { createLogger, type Logger } from './log.ts'
import { openDatabase, DatabaseStartError, type Db } from './db/database.ts'
import { oneTimeWorkDue, prepareDatabase } from './db/prepare.ts'
import { oneTimeWorkApart } from './one-time-work.ts'
import { releaseStartGarbage } from './start-garbage.ts'
import { createApi } from './api/index.ts'
import { API_PREFIX } from './api/handler.ts'
import { loadApp } from './app-loader.ts'
import { setSecurityHeaders } from './http/security-headers.ts'
import { readiness } from './http/health.ts'
import { createMetrics } from './http/metrics.ts'
import { createDoorGuard } from './http/doors.ts'
import { CLIENT_ADDRESS_HEADER } from './http/client-address.ts'
import { rejectUpgrade } from './realtime/http.ts'
import { createHubs } from './hubs.ts'
import { createE2eHooks } from './e2e-hooks.ts'
import { createPageCache } from './http/page-cache.ts'
import { sharePageCache } from './http/page-cache-bus.ts'

// The Node entry: one process, one port. Pages, /api/v1, /hubs and static files all come through
// the http server created here.
export async function startServer(
  config: Config,
  log: Logger,
  options: {
    webApp?: boolean
    onDatabaseOpen?: (database: Db) => void
    oneTimeWorkApart?: () => Promise<void>
    /** The entry's server gives back the memory its start used before it listens (decision 289). */ releaseStartGarbage?: boolean
    /** Tests: how long a body may stall (server/http/body-cut.ts). */ bodyIdleMs?: number
  } = {},
) {
  const database = await openDatabase(config.database)
  options.onDatabaseOpen?.(database)
  // A first start's one-time work may run in a process of its own, so this one never holds its
  // peak (decision 273); the web app loads meanwhile. What is left here is a restart's: nothing to
  // migrate, the reference upsert.
  const oneTimeWork =
    options.oneTimeWorkApart && (await oneTimeWorkDue(database, config))
      ? options.oneTimeWorkApart()
      : undefined
  const api = createApi({ database, log, config })
  const pageCache = createPageCache({ seconds: config.pageCacheSeconds })
  // Tests that exercise only the API and the hubs may leave the web app out (no build needed).
  const loadingApp =
    options.webApp === false
      ? Promise.resolve({
          listener: (_req: http.IncomingMessage, _res: http.ServerResponse, next: () => void) => next(),
          close: async () => {},
        })
      : loadApp(
          config.env === 'development' ? 'development' : 'production',
          {
            mode: config.env === 'development' ? 'development' : 'production',
            api: api.handler,
            apiUrl: config.apiUrl,
            publicUrl: config.publicUrl,
            checkoutOrigins: config.stripe ? [config.stripe.checkoutOrigin] : [],
            requestId: '',
            pageCache: config.env === 'development' ? undefined : pageCache,
          },
          log,
        )
  // Its failure is reported below, once the one-time work has ended.
  loadingApp.catch(() => {})
  await oneTimeWork
  await prepareDatabase({ database, config, log, services: api.services })
  const hubs = await createHubs({ config, log, identity: api.services.identity })
  // Test-only routes (server/e2e-hooks.ts), present only when the server runs with E2E=1.
  const e2e = process.env.E2E === '1' ? createE2eHooks(hubs) : null
  api.attachHubs(hubs.hubs, hubs.allowGroups)
  // A delivery (a notification row, a timer's change) may change what kept pages show.
  api.jobs.outbox.onDelivered(() => pageCache.invalidate())
  // …and while it runs, the session data a hub event from inside it makes pages ask for again is read afresh (decision 200).
  api.jobs.outbox.onDelivering(() => pageCache.hold())
  // Instances sharing Redis forget kept pages (decision 015) and every service's kept answers together (decision 269).
  // The bus rides the hubs' Redis connections: one instance's forget and the hub message that follows
  // it (an outbox delivery) reach the others in that order, so a page a hub event asks for is fresh.
  sharePageCache(pageCache, api.caches)
  if (hubs.backplane) await api.caches.connect(hubs.backplane)
  const app = await loadingApp
  const compress = compression({
    filter: (req, res) =>
      !String(res.getHeader('content-type') ?? '').startsWith('text/event-stream') &&
      compression.filter(req, res),
  })

  // Every request passes the door guard first (server/http/doors.ts): what no door can take is
  // answered there, each door's body is limited, and whatever escapes a door's dispatch is a 500.
  const metrics = createMetrics({
    database,
    hubConnections: () => hubs.server.connectionCounts(),
    ledgerHealth: () => api.jobs.ledgerHealth.peek(),
    token: config.metricsToken,
  })
  const doors = createDoorGuard({
    log,
    trustProxy: config.trustProxy,
    isHubPath: (path) => hubs.server.owns(path),
    apiPrefix: API_PREFIX,
    bodyIdleMs: options.bodyIdleMs,
  })
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const requestId = safeRequestId(req.headers['x-request-id'])
    req.headers['x-request-id'] = requestId
    res.setHeader('x-request-id', requestId)
    setSecurityHeaders(res, config.isProduction)
    const url = req.url ?? '/'
    const started = performance.now()
    if (metrics.owns(url)) return void metrics.serve(req, res)
    let door: ReturnType<typeof doors.admit> = null
    res.once('finish', () => {
      const ms = performance.now() - started
      if (!url.startsWith(API_PREFIX) && !doors.refused(req))
        log.info(
          {
            requestId,
            method: req.method,
            path: url.split('?')[0],
            status: res.statusCode,
            ms: Math.round(ms),
          },
          'http',
        )
      metrics.observe(door ?? 'refused', req.method ?? 'GET', url.split('?')[0], res.statusCode, ms / 1000)
    })
    door = doors.admit(req, res, requestId)
    if (!door) return
    // Any write may change what visitors see: the kept pages go when it starts and again when it
    // ends, so no page rendered in between is kept (server/http/page-cache.ts). Hub traffic
    // (negotiate, SSE and long-polling sends) writes nothing pages show.
    if (req.method !== 'GET' && req.method !== 'HEAD' && door !== 'hub' && door !== 'hub-negotiate') {
      // Held, not only emptied: session data read meanwhile is not kept either (decision 200).
      res.once('close', pageCache.hold())
    }
    doors.run(req, res, requestId, door, () => {
      if (door === 'health')
        return url.startsWith('/readyz')
          ? readiness(database).then((r) =>
              res.writeHead(r.ok ? 200 : 503, { 'content-type': 'text/plain' }).end(r.detail),
            )
          : res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
      if (e2e?.(req, res)) return
      // Hub traffic is never compressed: Server-Sent Events must reach the client as written.
      if (hubs.server.handleRequest(req, res)) return
      compress(req as never, res as never, () =>
        doors.run(req, res, requestId, door, async () => {
          if (door !== 'api')
            return app.listener(
              req,
              res,
              () => res.headersSent || res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found'),
            )
          const response = await api.handler(createRequest(req, res), {
            requestId,
            ip: String(req.headers[CLIENT_ADDRESS_HEADER]),
          })
          // The guard may have answered already (a body past its limit): the API's answer is dropped.
          if (res.headersSent) return void response.body?.cancel()
          await sendResponse(res, response)
        }),
      )
    })
  }
  // Only a WebSocket request to a hub is an upgrade; any other Upgrade header is served as a plain request.
  const server = http.createServer(
    {
      shouldUpgradeCallback: (req) =>
        hubs.server.owns(req.url) && String(req.headers.upgrade).toLowerCase() === 'websocket',
    },
    handle,
  )
  // 100-continue is answered once the guard admits the request, so a refused body is never sent.
  server.on('checkContinue', handle)
  server.on('clientError', doors.clientError)
  server.on('connect', (req, socket) => doors.refuseUpgrade(req, socket) || socket.destroy())
  server.on('upgrade', (req, socket, head) => {
    if (doors.refuseUpgrade(req, socket)) return
    if (!hubs.server.handleUpgrade(req, socket, head)) rejectUpgrade(socket, 404)
  })
  api.jobs.fileSweep.start()
  api.jobs.refundSweep.start()
  api.jobs.payoutSweep.start()
  if (config.isProduction && new URL(config.publicUrl).hostname === 'localhost')
    log.warn(
      `PUBLIC_URL is not set: links in mails point to ${config.publicUrl}; set PUBLIC_URL to the site's public address`,
    )
  if (config.isProduction && !config.stripe && !config.seedDemo)
    log.warn(
      'Payments go through the built-in sandbox gateway (test cards, no real money): set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to take payments through Stripe',
    )

  if (options.releaseStartGarbage) releaseStartGarbage()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => resolve())
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  log.info({ port, database: database.dialect }, `Workneer is listening on http://localhost:${port}`)
  // Delivery starts once requests can be served: what a crash left pending goes out beside them.
  api.jobs.outbox.start()
  // The ledger's health checks read every entry: their first run waits until the server is serving (decision 264).
  api.jobs.ledgerHealth.job.start()

  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      log.info('shutting down: finishing requests in flight')
      // Hub clients are told to reconnect (to another instance, or to this one once it is back).
      await hubs.close()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
        // Requests still running after 10 s are cut so the process always ends.
        setTimeout(() => server.closeAllConnections(), 10_000).unref()
      })
      await app.close()
      await api.jobs.close()
      await database.close()
      log.info('stopped')
    })())
  return { server, port, close, database, hubs: hubs.hubs, allowHubGroups: hubs.allowGroups, api }
}

function safeRequestId(value: string | string[] | undefined) {
  return typeof value === 'string' && /^[\w.-]{8,64}$/.test(value) ? value : randomUUID()
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>

export async function main() {
  // Signals are heard from the first moment. While the server starts, a Ctrl-C or SIGTERM closes
  // the database (SQLite rolls back an unfinished step and leaves a clean file) and exits: every
  // step of a start is whole or not at all, so the next start finishes the work. Once it serves,
  // the same signal lets requests in flight finish first; a second one stops at once.
  const started: {
    log?: Logger
    database?: Db
    server?: RunningServer
    oneTimeWork?: ReturnType<typeof oneTimeWorkApart>
  } = {}
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    const { log, database, server, oneTimeWork } = started
    if (stopping) {
      log?.warn(`${signal} again: stopping now`)
      process.exit(1)
    }
    stopping = true
    if (server) {
      server.close().then(
        () => process.exit(0),
        (error) => {
          log?.error({ err: error }, 'shutdown failed')
          process.exit(1)
        },
      )
      return
    }
    log?.info(`${signal} while starting: stopping; the next start finishes what this one began`)
    // The one-time work's process stops the same way, and is waited for. SQLite's handle closes at
    // once. PostgreSQL drops the open transaction of a connection that goes away; ending the pool
    // would wait for the step to finish instead.
    const closed = (oneTimeWork?.stop(signal) ?? Promise.resolve()).then(() =>
      database?.dialect === 'sqlite' ? database.close() : undefined,
    )
    closed.catch(() => {}).finally(() => process.exit(0))
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal))

  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  const log = (started.log = createLogger(config.logLevel))
  let running: RunningServer
  try {
    const apart = () => {
      started.oneTimeWork = oneTimeWorkApart()
      return started.oneTimeWork.done.finally(() => (started.oneTimeWork = undefined))
    }
    running = await startServer(config, log, {
      onDatabaseOpen: (database) => (started.database = database),
      oneTimeWorkApart: apart,
      releaseStartGarbage: true,
    })
  } catch (error) {
    // A start stopped by a signal fails on its closed database: the signal's handler exits.
    if (stopping) return
    if (error instanceof DatabaseStartError) console.error(`Workneer cannot start: ${error.message}`)
    else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      console.error(`Workneer cannot start: port ${config.port} is already in use (set PORT)`)
    else console.error(`Workneer cannot start: ${(error as Error).message}`)
    process.exit(1)
  }
  started.server = running
  // Stopped while the last step finished: close what started.
  if (stopping) void running.close().finally(() => process.exit(0))
}

export type { Db }
