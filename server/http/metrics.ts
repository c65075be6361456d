import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import client from 'prom-client'
import type { Db } from '../db/database.ts'
import type { HealthSnapshot } from '../modules/admin-money/health-monitor.ts'

// `/metrics` in the Prometheus text format (issue 19 item 7, decision 262): requests by destination,
// route and status with latency histograms, hub connections, the outbox's backlog and lag, the
// database pool, ledger balances per currency, and the process's own figures. Who may read it:
// with METRICS_TOKEN set, a caller sending `Authorization: Bearer <token>`; without it, only this
// machine (the socket's address, never X-Forwarded-For: a proxy on loopback must not open it).

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])
const MAX_ROUTES = 400

export interface MetricsOptions {
  database: Db
  hubConnections: () => Record<string, number>
  /** The ledger health checks' last run (null before the first): a scrape never reads the whole ledger (decision 264). */
  ledgerHealth?: () => HealthSnapshot | null
  token?: string
}

/**
 * A route label with a bounded number of values: ids and tokens in a path become placeholders, a
 * path nothing served (404) is `unmatched`, and past MAX_ROUTES distinct routes the rest are `other`.
 */
export function routeLabel(destination: string, path: string, status: number, seen?: Set<string>) {
  if (status === 404) return 'unmatched'
  if (destination === 'hub' || destination === 'hub-negotiate')
    return path.replace(/^(\/hubs\/[^/]+).*$/, '$1')
  const route = path
    .split('/')
    .map((part) =>
      /^\d+$/.test(part) ? '{id}' : part.length > 24 || /^[0-9a-f-]{16,}$/i.test(part) ? '{token}' : part,
    )
    .join('/')
  if (!seen) return route
  if (!seen.has(route) && seen.size >= MAX_ROUTES) return 'other'
  seen.add(route)
  return route
}

export function createMetrics(options: MetricsOptions) {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry, prefix: 'workneer_' })
  const routes = new Set<string>()
  const { requests, latency } = requestMetrics(registry)
  processGauges(registry, options)
  const readDatabase = databaseGauges(registry, options)

  function allowed(req: IncomingMessage) {
    if (!options.token) return LOOPBACK.has(req.socket.remoteAddress ?? '')
    const given = Buffer.from(String(req.headers.authorization ?? ''))
    const expected = Buffer.from(`Bearer ${options.token}`)
    return given.length === expected.length && timingSafeEqual(given, expected)
  }

  return {
    owns: (url: string) => url === '/metrics' || url.startsWith('/metrics?'),

    observe(destination: string, method: string, path: string, status: number, seconds: number) {
      const route = routeLabel(destination, path, status, routes)
      requests.inc({ destination, method, route, status: String(status) })
      latency.observe({ destination, method, route }, seconds)
    },

    async serve(req: IncomingMessage, res: ServerResponse) {
      req.resume()
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return void res
          .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' })
          .end('Method Not Allowed\n')
      if (!allowed(req))
        return void res
          .writeHead(options.token ? 401 : 403, {
            'content-type': 'text/plain',
            ...(options.token ? { 'www-authenticate': 'Bearer' } : {}),
          })
          .end(
            options.token
              ? 'Unauthorized\n'
              : 'Forbidden: set METRICS_TOKEN to read /metrics from elsewhere\n',
          )
      await readDatabase()
      const body = await registry.metrics()
      res
        .writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' })
        .end(req.method === 'HEAD' ? undefined : body)
    },
  }
}

export type Metrics = ReturnType<typeof createMetrics>

function requestMetrics(registry: client.Registry) {
  const requests = new client.Counter({
    name: 'workneer_http_requests_total',
    help: 'Requests answered, by destination (api, pages, hub, health; refused by the request guard), method, route and status',
    labelNames: ['destination', 'method', 'route', 'status'],
    registers: [registry],
  })
  const latency = new client.Histogram({
    name: 'workneer_http_request_duration_seconds',
    help: 'Time from the request to the last byte of the answer, by destination, method and route',
    labelNames: ['destination', 'method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  return { requests, latency }
}

/** Figures read from the process itself at each scrape: hub connections and the database pool. */
function processGauges(registry: client.Registry, options: MetricsOptions) {
  new client.Gauge({
    name: 'workneer_hub_connections',
    help: 'Hub connections open on this instance, by transport',
    labelNames: ['transport'],
    registers: [registry],
    collect() {
      this.reset()
      for (const [transport, n] of Object.entries(options.hubConnections())) this.set({ transport }, n)
    },
  })
  new client.Gauge({
    name: 'workneer_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting); SQLite has one handle and no pool',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = options.database.pool?.()
      if (pool) for (const [state, n] of Object.entries(pool)) this.set({ state }, n)
    },
  })
}

/** The outbox, the ledger and the database's own health: their gauges, and the read that sets them (once per scrape). */
function databaseGauges(registry: client.Registry, options: MetricsOptions) {
  const { database } = options
  const outboxRows = new client.Gauge({
    name: 'workneer_outbox_rows',
    help: 'Outbox rows waiting (pending) or given up (dead), by topic',
    labelNames: ['status', 'topic'],
    registers: [registry],
  })
  const outboxLag = new client.Gauge({
    name: 'workneer_outbox_lag_seconds',
    help: 'Age of the oldest pending outbox row that is due (0 when none is)',
    registers: [registry],
  })
  const balances = new client.Gauge({
    name: 'workneer_ledger_balance_minor',
    help: 'Sum of ledger account balances in minor units, by currency and account kind',
    labelNames: ['currency', 'kind'],
    registers: [registry],
  })
  const imbalance = new client.Gauge({
    name: 'workneer_ledger_entries_sum_minor',
    help: 'Sum of all ledger entries per currency as of the last health check: 0 when every transaction balances (alert on anything else)',
    labelNames: ['currency'],
    registers: [registry],
  })
  const healthProblems = new client.Gauge({
    name: 'workneer_ledger_health_problems',
    help: 'Problems each ledger health check found in its last run (0 = OK; alert on anything else)',
    labelNames: ['check'],
    registers: [registry],
  })
  const healthAge = new client.Gauge({
    name: 'workneer_ledger_health_age_seconds',
    help: 'Age of the last ledger health check run (they run every 15 minutes; alert when it stops growing back to 0)',
    registers: [registry],
  })
  const up = new client.Gauge({
    name: 'workneer_db_up',
    help: '1 when the database answered this scrape',
    registers: [registry],
  })

  // Database figures are read once per scrape, together.
  async function readDatabase() {
    const { outbox, oldest, accounts } = await databaseFigures(database)
    outboxRows.reset()
    for (const row of outbox) outboxRows.set({ status: row.status, topic: row.topic }, Number(row.n))
    const due = oldest?.due ? Date.parse(String(oldest.due)) : NaN
    outboxLag.set(Number.isFinite(due) ? Math.max(0, (Date.now() - due) / 1000) : 0)
    balances.reset()
    for (const row of accounts) balances.set({ currency: row.currency, kind: row.kind }, Number(row.total))
    // Summing every ledger entry is the health checks' work, done every 15 minutes, not per scrape.
    const health = options.ledgerHealth?.()
    imbalance.reset()
    healthProblems.reset()
    if (health) {
      for (const row of health.sums) imbalance.set({ currency: row.currency }, row.sumMinor)
      for (const c of health.checks) healthProblems.set({ check: c.check }, c.problems.length)
      healthAge.set(Math.max(0, (Date.now() - Date.parse(health.checkedAt)) / 1000))
    }
  }

  return async () => {
    try {
      await readDatabase()
      up.set(1)
    } catch {
      up.set(0)
    }
  }
}

function databaseFigures(database: Db) {
  const now = new Date().toISOString()
  return Promise.all([
    database.db
      .selectFrom('outbox')
      .select(['status', 'topic', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', 'in', ['pending', 'dead'])
      .groupBy(['status', 'topic'])
      .execute(),
    database.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.min('run_after').as('due'))
      .where('status', '=', 'pending')
      .where('run_after', '<=', now)
      .executeTakeFirst(),
    database.db
      .selectFrom('ledger_account')
      .select(['currency', 'kind', (eb) => eb.fn.sum<number>('balance_minor').as('total')])
      .groupBy(['currency', 'kind'])
      .execute(),
  ]).then(([outbox, oldest, accounts]) => ({ outbox, oldest, accounts }))
}
