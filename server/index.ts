import http from 'node:http'
import { randomUUID } from 'node:crypto'
import compression from 'compression'
import { createRequest, sendResponse } from '@remix-run/node-fetch-server'
import { loadConfig, ConfigError, type Config } from './config.ts'
import { createLogger, type Logger } from './log.ts'
import { openDatabase, migrateToLatest, DatabaseStartError, type Db } from './db/database.ts'
import { seedReference } from './db/seed.ts'
import { seedDemo } from './db/demo.ts'
import { createApi } from './api/index.ts'
import { API_PREFIX } from './api/handler.ts'
import { loadApp } from './app-loader.ts'
import { setSecurityHeaders } from './http/security-headers.ts'
import { readiness } from './http/health.ts'
import { createHubs } from './hubs.ts'
import { createE2eHooks } from './e2e-hooks.ts'
import { createPageCache } from './http/page-cache.ts'
import { sharePageCache } from './http/page-cache-bus.ts'
import { createRedisBackplane } from './realtime/backplane-redis.ts'

// The Node entry: one process, one port. Pages, /api/v1, /hubs and static files all come through
// the http server created here.
export async function startServer(config: Config, log: Logger, options: { webApp?: boolean } = {}) {
  const database = await openDatabase(config.database)
  const applied = await migrateToLatest(database)
  if (applied.length) log.info({ applied }, 'migrations applied')
  await seedReference(database.db)

  const api = createApi({ database, log, config })
  if (config.seedDemo && (await api.services.identity.hasNoAccounts())) await seedDemo({ services: api.services, log, password: config.demoPassword })
  const hubs = await createHubs({ config, log, identity: api.services.identity })
  // Test-only routes (server/e2e-hooks.ts), present only when the server runs with E2E=1.
  const e2e = process.env.E2E === '1' ? createE2eHooks(hubs) : null
  api.attachHubs(hubs.hubs, hubs.allowGroups)
  const pageCache = createPageCache({ seconds: config.pageCacheSeconds })
  // A delivery (a notification row, a timer's change) may change what kept pages show.
  api.jobs.outbox.onDelivered(() => pageCache.invalidate())
  // Instances sharing Redis forget kept pages together (decision 015).
  const pageBus = config.redisUrl && config.pageCacheSeconds > 0 ? await createRedisBackplane(config.redisUrl, `${config.redisPrefix}pages:`, { logger: log.child({ module: 'pages-redis' }) }) : undefined
  if (pageBus) await sharePageCache(pageCache, pageBus)
  // Tests that exercise only the API and the hubs may leave the web app out (no build needed).
  const app =
    options.webApp === false
      ? { listener: (_req: http.IncomingMessage, _res: http.ServerResponse, next: () => void) => next(), close: async () => {} }
      : await loadApp(config.env === 'development' ? 'development' : 'production', { mode: config.env === 'development' ? 'development' : 'production', api: api.handler, apiUrl: config.apiUrl, requestId: '', pageCache: config.env === 'development' ? undefined : pageCache }, log)
  const compress = compression({ filter: (req, res) => !String(res.getHeader('content-type') ?? '').startsWith('text/event-stream') && compression.filter(req, res) })

  const server = http.createServer((req, res) => {
    const requestId = safeRequestId(req.headers['x-request-id'])
    req.headers['x-request-id'] = requestId
    res.setHeader('x-request-id', requestId)
    setSecurityHeaders(res, config.isProduction)
    const url = req.url ?? '/'
    // Any write may change what visitors see: the kept pages go when it starts and again when it
    // ends, so no page rendered in between is kept (server/http/page-cache.ts). Hub traffic
    // (negotiate, SSE and long-polling sends) writes nothing pages show.
    if (req.method !== 'GET' && req.method !== 'HEAD' && !url.startsWith('/hubs/')) {
      pageCache.invalidate()
      res.once('close', () => pageCache.invalidate())
    }
    const started = performance.now()
    res.once('finish', () => {
      if (!url.startsWith(API_PREFIX)) log.info({ requestId, method: req.method, path: url.split('?')[0], status: res.statusCode, ms: Math.round(performance.now() - started) }, 'http')
    })
    if (url === '/healthz') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    if (url === '/readyz') return void readiness(database).then((r) => res.writeHead(r.ok ? 200 : 503, { 'content-type': 'text/plain' }).end(r.detail))
    if (e2e?.(req, res)) return
    // Hub traffic is never compressed: Server-Sent Events must reach the client as written.
    if (hubs.server.handleRequest(req, res)) return
    compress(req as never, res as never, () => {
      if (url.startsWith(API_PREFIX) || url === API_PREFIX.slice(0, -1)) {
        const request = createRequest(req, res)
        api.handler(request, { requestId, ip: req.socket.remoteAddress ?? '' }).then((response) => sendResponse(res, response)).catch((error) => failed(res, error, log))
        return
      }
      app.listener(req, res, () => {
        if (!res.headersSent) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
      })
    })
  })

  // WebSocket upgrades go to the hubs; any other upgrade is refused.
  server.on('upgrade', (req, socket, head) => {
    if (!hubs.server.handleUpgrade(req, socket, head)) socket.destroy()
  })
  api.jobs.fileSweep.start()
  if (config.isProduction && !config.publicUrl) log.warn('PUBLIC_URL is not set: links in mails use the address each request came in on; set PUBLIC_URL to the site\'s public address')

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => resolve())
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  log.info({ port, database: database.dialect }, `Workneer is listening on http://localhost:${port}`)
  // Delivery starts once requests can be served: what a crash left pending goes out beside them.
  api.jobs.outbox.start()

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
      await pageBus?.close()
      await api.jobs.close()
      await database.close()
      log.info('stopped')
    })())
  return { server, port, close, database, hubs: hubs.hubs, allowHubGroups: hubs.allowGroups, api }
}

function safeRequestId(value: string | string[] | undefined) {
  return typeof value === 'string' && /^[\w.-]{8,64}$/.test(value) ? value : randomUUID()
}

function failed(res: http.ServerResponse, error: unknown, log: Logger) {
  log.error({ err: error }, 'request failed')
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
  res.end()
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>

export async function main() {
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
  const log = createLogger(config.logLevel)
  let running: RunningServer
  try {
    running = await startServer(config, log)
  } catch (error) {
    if (error instanceof DatabaseStartError) console.error(`Workneer cannot start: ${error.message}`)
    else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`Workneer cannot start: port ${config.port} is already in use (set PORT)`)
    else console.error(`Workneer cannot start: ${(error as Error).message}`)
    process.exit(1)
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      running.close().then(
        () => process.exit(0),
        (error) => {
          log.error({ err: error }, 'shutdown failed')
          process.exit(1)
        },
      )
    })
  }
}


export type { Db }
