import type http from 'node:http'
import { loadConfig, ConfigError, type Config } from './config.ts'
import { createLogger, type Logger } from './log.ts'
import { openDatabase, DatabaseStartError, type Db } from './db/database.ts'
import { prepareDatabase } from './db/prepare.ts'
import { createApi } from './api/index.ts'
import { API_PREFIX } from './api/handler.ts'
import { loadApp, type WebApp } from './app-loader.ts'
import { createMetrics } from './http/metrics.ts'
import { createRequestGuard } from './http/request-guard.ts'
import { createHttpServer } from './http/serve.ts'
import { createHubs, type HubsRuntime } from './hubs.ts'

// The Node entry: one process, one port. Pages, /api/v1, /hubs and static files all come through
// the http server created here (server/http/serve.ts).

export interface StartOptions {
  /** Tests that exercise only the API and the hubs may leave the web app out (no build needed). */
  webApp?: boolean
  onDatabaseOpen?: (database: Db) => void
  /** Tests: how long a body may stall (server/http/request-body.ts). */
  bodyIdleMs?: number
}

export async function startServer(config: Config, log: Logger, options: StartOptions = {}) {
  const database = await openDatabase(config.database)
  options.onDatabaseOpen?.(database)
  const api = createApi({ database, log, config })
  // Each step is whole or not at all, so a start stopped anywhere is finished by the next one.
  await prepareDatabase({ database, config, log, services: api.services })
  const hubs = await createHubs({ config, log, identity: api.services.identity })
  api.attachHubs(hubs.hubs, hubs.allowGroups)
  const app = await loadWebApp(config, api.handler, log, options.webApp)
  const server = createHttpServer({
    config,
    log,
    database,
    api: api.handler,
    hubs,
    app,
    guard: createRequestGuard({
      log,
      trustProxy: config.trustProxy,
      isHubPath: (path) => hubs.server.owns(path),
      apiPrefix: API_PREFIX,
      bodyIdleMs: options.bodyIdleMs,
    }),
    metrics: createMetrics({
      database,
      hubConnections: () => hubs.server.connectionCounts(),
      ledgerHealth: () => api.jobs.ledgerHealth.peek(),
      token: config.metricsToken,
    }),
    e2e: await e2eHooks(hubs),
  })
  api.jobs.fileSweep.start()
  api.jobs.refundSweep.start()
  api.jobs.payoutSweep.start()
  api.jobs.timesheetSweep.start()
  api.jobs.closingSweep.start()
  api.jobs.dataExportSweep.start()
  api.jobs.alertDigests.start()
  warnAboutDefaults(config, log)
  const port = await listen(server, config)
  log.info({ port, database: database.dialect }, `Workneer is listening on http://localhost:${port}`)
  // Delivery starts once requests can be served: what a crash left pending goes out beside them.
  api.jobs.outbox.start()
  // The ledger's health checks read every entry: their first run waits until the server is serving (decision 264).
  api.jobs.ledgerHealth.job.start()
  const close = closer({ log, server, hubs, app, jobs: api.jobs, database })
  return { server, port, close, database, hubs: hubs.hubs, allowHubGroups: hubs.allowGroups, api }
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>

function loadWebApp(
  config: Config,
  api: ReturnType<typeof createApi>['handler'],
  log: Logger,
  webApp = true,
) {
  if (!webApp)
    return Promise.resolve<WebApp>({
      serveStatic: (_req, _res, next) => next(),
      handle: async () =>
        new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } }),
      close: async () => {},
    })
  const mode = config.env === 'development' ? 'development' : 'production'
  return loadApp(
    mode,
    {
      mode,
      api,
      apiUrl: config.apiUrl,
      publicUrl: config.publicUrl,
      checkoutOrigins: config.stripe ? [config.stripe.checkoutOrigin] : [],
      requestId: '',
      log,
    },
    log,
  )
}

/** Test-only routes, loaded only when the server runs with E2E=1, so a production start never loads test code. */
async function e2eHooks(hubs: HubsRuntime) {
  if (process.env.E2E !== '1') return undefined
  const { createE2eHooks } = await import('../tests/support/e2e-hooks.ts')
  return createE2eHooks(hubs)
}

function warnAboutDefaults(config: Config, log: Logger) {
  if (config.isProduction && new URL(config.publicUrl).hostname === 'localhost')
    log.warn(
      `PUBLIC_URL is not set: links in mails point to ${config.publicUrl}; set PUBLIC_URL to the site's public address`,
    )
  if (config.isProduction && !config.stripe && !config.seedDemo)
    log.warn(
      'Payments go through the built-in sandbox gateway (test cards, no real money): set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to take payments through Stripe',
    )
}

async function listen(server: http.Server, config: Config) {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => resolve())
  })
  const address = server.address()
  return typeof address === 'object' && address ? address.port : config.port
}

function closer(parts: {
  log: Logger
  server: http.Server
  hubs: HubsRuntime
  app: WebApp
  jobs: { close(): Promise<void> }
  database: Db
}) {
  const { log, server, hubs, app, jobs, database } = parts
  let closing: Promise<void> | undefined
  return () =>
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
      await jobs.close()
      await database.close()
      log.info('stopped')
    })())
}

export async function main() {
  // Signals are heard from the first moment. While the server starts, a Ctrl-C or SIGTERM closes
  // the database (SQLite rolls back an unfinished step and leaves a clean file) and exits: every
  // step of a start is whole or not at all, so the next start finishes the work. Once it serves,
  // the same signal lets requests in flight finish first; a second one stops at once.
  const started: { log?: Logger; database?: Db; server?: RunningServer; stopping?: boolean } = {}
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(started, signal))
  const config = configOrExit()
  const log = (started.log = createLogger(config.logLevel))
  try {
    started.server = await startServer(config, log, {
      onDatabaseOpen: (database) => (started.database = database),
    })
  } catch (error) {
    // A start stopped by a signal fails on its closed database: the signal's handler exits.
    if (started.stopping) return
    console.error(`Workneer cannot start: ${startFailure(error, config)}`)
    process.exit(1)
  }
  // Stopped while the last step finished: close what started.
  if (started.stopping) void started.server.close().finally(() => process.exit(0))
}

function stop(
  started: { log?: Logger; database?: Db; server?: RunningServer; stopping?: boolean },
  signal: NodeJS.Signals,
) {
  const { log, database, server } = started
  if (started.stopping) {
    log?.warn(`${signal} again: stopping now`)
    process.exit(1)
  }
  started.stopping = true
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
  // SQLite's handle closes at once. PostgreSQL drops the open transaction of a connection that
  // goes away; ending the pool would wait for the step to finish instead.
  const closed = database?.dialect === 'sqlite' ? database.close() : Promise.resolve()
  closed.catch(() => {}).finally(() => process.exit(0))
}

function configOrExit() {
  try {
    return loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}

function startFailure(error: unknown, config: Config) {
  if (error instanceof DatabaseStartError) return error.message
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
    return `port ${config.port} is already in use (set PORT)`
  return (error as Error).message
}

export type { Db }
