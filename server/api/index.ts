import { contentSecurityPolicy, newNonce } from '../http/security-headers.ts'
import type { Config } from '../config.ts'
import type { Db } from '../db/database.ts'
import { SESSIONS_ENDED_TOPIC } from '../modules/identity/service.ts'
import { bearerOf } from '../modules/identity/routes.ts'
import { createOutboxWorker } from '../jobs/outbox.ts'
import { createMailHandler, EMAIL_TOPIC } from '../jobs/mailer.ts'
import { createRateLimiter, type RateLimiter } from '../lib/rate-limit.ts'
import { createFileSweeper, fileOutboxHandlers } from '../modules/files/lifecycle.ts'
import { projectsOutboxHandlers } from '../modules/projects/outbox.ts'
import { paymentsOutboxHandlers } from '../modules/payments/outbox.ts'
import { customerErasureHandlers } from '../modules/payments/gateway-customers.ts'
import { createClosingSweep } from '../modules/admin-users/closing-sweep.ts'
import { notificationGroups } from '../modules/notifications/groups.ts'
import { notificationsOutboxHandlers } from '../modules/notifications/outbox.ts'
import { pushOutboxHandlers, vapidSubject } from '../modules/notifications/push-delivery.ts'
import { chatOutboxHandlers } from '../modules/chat/outbox.ts'
import { chatGroups } from '../modules/chat/groups.ts'
import { complaintsOutboxHandlers } from '../modules/complaints/outbox.ts'
import { offersOutboxHandlers } from '../modules/projects/offers/routes.ts'
import { alertsOutboxHandlers, createDigestJob } from '../modules/alerts/service.ts'
import { hiringOutboxHandlers } from '../modules/hiring/service.ts'
import type { OutboxHandler } from '../jobs/outbox.ts'
import type { Hubs, HubsRuntime } from '../hubs.ts'
import { createApiHandler, type Implementation } from './handler.ts'
import { routesOf } from './routes.ts'
import { openApiDocument, openApiHtml } from './openapi.ts'
import {
  createMarketplace,
  createPlatform,
  createSiteAndAdmin,
  type Marketplace,
  type Options,
  type Platform,
  type SiteAndAdmin,
} from './services.ts'

// The composition root: each module's service (built once per process in services.ts) wired to its
// routes, its outbox topics and its periodic jobs. The API and the real-time hubs share
// the services; the hubs come later (they authenticate through identity), so the outbox topics
// that reach browsers are registered again once the server attaches them.

function createLimiter({ config, log, rateLimiter }: Options) {
  return (
    rateLimiter ??
    createRateLimiter({
      redisUrl: config.redisUrl,
      redisPrefix: config.redisPrefix,
      onOutage: (error) =>
        error
          ? log.warn(
              { err: error },
              'rate limits: Redis does not answer; counting in this instance until it does',
            )
          : log.info('rate limits: counted in Redis again'),
    })
  )
}

/** The outbox topics of the modules whose deliveries reach browsers, with the hubs (null before the server has them). */
function browserTopics(
  db: Db['db'],
  config: Config,
  p: Platform,
  m: Marketplace,
  hubs: Hubs | null,
): Record<string, OutboxHandler> {
  const { notifications, chat } = p
  return {
    ...projectsOutboxHandlers({ db, projects: m.projects, notifications, hubs }),
    ...complaintsOutboxHandlers({ db, notifications, hubs }),
    // An admin ended a user's sessions: their hub connections close now, on every instance.
    [SESSIONS_ENDED_TOPIC]: async ({ userId }: { userId: number }) =>
      void (await hubs?.disconnectUser(userId)),
    ...notificationsOutboxHandlers({ notifications, hubs }),
    ...pushOutboxHandlers(db, { subject: vapidSubject(config.publicUrl, config.supportEmail) }),
    ...paymentsOutboxHandlers({ db, notifications, hubs }),
    ...chatOutboxHandlers({ db, chat, notifications, hubs, publicUrl: config.publicUrl }),
    ...alertsOutboxHandlers({ db, alerts: p.alerts, notifications, hubs }),
    ...hiringOutboxHandlers({ db, notifications, hubs }),
  }
}

/** The API's handler, with the OpenAPI document and its HTML page beside the endpoints. */
function createHandler({ log, config }: Options, implementations: Implementation[], p: Platform) {
  const endpoints = implementations.map((i) => i.endpoint)
  let document: ReturnType<typeof openApiDocument> | undefined
  let html: string | undefined
  const docs = () => {
    // An HTML answer like the pages: its own nonce and the pages' policy (decision 261).
    const nonce = newNonce()
    const body = (html ??= openApiHtml(endpoints)).replace('<style>', `<style nonce="${nonce}">`)
    return new Response(body, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'content-security-policy': contentSecurityPolicy(nonce),
      },
    })
  }
  const handler = createApiHandler({
    implementations,
    log,
    authenticate: (request) => p.identity.authenticate(bearerOf(request)),
    validateResponses: !config.isProduction,
    extra: (request, path) => {
      if (request.method !== 'GET') return null
      if (path === 'openapi.json')
        return Response.json((document ??= openApiDocument(endpoints)), {
          headers: { 'cache-control': 'public, max-age=60' },
        })
      return path === 'docs' ? docs() : null
    },
  })
  return { handler, endpoints }
}

/** The outbox worker and the periodic sweeps, started by the server and stopped together. */
function createJobs(options: Options, p: Platform, m: Marketplace, s: SiteAndAdmin, limiter: RateLimiter) {
  const { database, log, config, outboxPollMs } = options
  const db = database.db
  // The outbox delivers side effects after commit: every commit that enqueued wakes it (the
  // database's commit watch), so services never call it; each module registers its topics here.
  const mailer = createMailHandler({ smtpUrl: config.smtpUrl, from: config.mailFrom, log })
  const handlers: Record<string, OutboxHandler> = {
    [EMAIL_TOPIC]: mailer.handler,
    ...browserTopics(db, config, p, m, null),
    // Released file bytes go after commit; bytes whose row is gone are swept hourly (modules/files/lifecycle.ts).
    ...fileOutboxHandlers({ db, storage: p.files.storage }),
    ...p.dataExports.outboxHandlers,
    ...customerErasureHandlers([m.payments.stripeGateway, m.payments.sandboxGateway], log),
    ...offersOutboxHandlers(m.projects.offers),
  }
  const outbox = createOutboxWorker({ db, onCommit: database.onCommit, log, handlers, pollMs: outboxPollMs })
  const fileSweep = createFileSweeper({
    db,
    storage: p.files.storage,
    log,
    releaseUnreferenced: () => p.files.releaseUnreferenced(),
  })
  const { refundSweep } = m.payments
  const { payoutSweep } = m.payments
  const closingSweep = createClosingSweep({ db, dialect: database.dialect, identity: p.identity })
  const alertDigests = createDigestJob(p.alerts, log, config.alertDigestSweepMs)
  return {
    /** The topics of every module, by name: attaching the hubs replaces the ones that reach browsers. */
    handlers,
    outbox,
    fileSweep,
    /** Auto-release and refunds the gateway was not asked for, hourly (modules/payments/refunds.ts). */
    refundSweep,
    /** Payouts whose gateway answer was lost, every 15 minutes (modules/payments/payouts.ts). */
    payoutSweep,
    /** Timesheet weeks left unanswered past TIMESHEET_REVIEW_DAYS approved, hourly (modules/projects/timesheets/sweep.ts). */
    timesheetSweep: m.timesheets.sweepJob,
    /** Accounts their owners closed 14 days ago and did not come back to, erased hourly (modules/admin-users/closing-sweep.ts). */
    closingSweep,
    /** The ledger's health checks, every 15 minutes (modules/admin-money/health-monitor.ts); /metrics reads the last run. */
    ledgerHealth: s.ledgerHealth,
    /** The job alerts' email digests, every 10 minutes (modules/alerts/digest.ts). */
    alertDigests,
    /** Data exports past their 7 days, removed hourly (modules/data-export/build.ts). */
    dataExportSweep: p.dataExports.sweep,
    async close() {
      await outbox.stop()
      await fileSweep.stop()
      await refundSweep.stop()
      await payoutSweep.stop()
      await m.timesheets.sweepJob.stop()
      await closingSweep.stop()
      await alertDigests.stop()
      await p.dataExports.sweep.stop()
      await s.ledgerHealth.job.stop()
      mailer.close()
      await limiter.close()
    },
  }
}

export function createApi(options: Options) {
  const { database, config } = options
  const limiter = createLimiter(options)
  const platform = createPlatform(options, limiter)
  const marketplace = createMarketplace(options, platform)
  const site = createSiteAndAdmin(options, limiter, platform, marketplace)
  const { handler, endpoints } = createHandler(options, routesOf(platform, marketplace, site), platform)
  const { handlers, ...jobs } = createJobs(options, platform, marketplace, site, limiter)
  const { payments } = marketplace
  return {
    handler,
    endpoints,
    services: {
      ...platform,
      content: site.content,
      projects: marketplace.projects,
      complaints: marketplace.complaints,
      deliverables: marketplace.deliverables,
      timesheets: marketplace.timesheets,
      adminUsers: site.adminUsers,
      payments: payments.service,
      refunds: payments.refunds,
      payouts: payments.payouts,
      sandbox: payments.sandbox,
      sandboxGateway: payments.sandboxGateway,
      stripeGateway: payments.stripeGateway,
    },
    jobs,
    /** Lets outbox deliveries reach browsers once the hubs exist, and registers the hub groups modules let browsers join (server/index.ts). */
    attachHubs(hubs: Hubs, allowGroups?: HubsRuntime['allowGroups']) {
      Object.assign(handlers, browserTopics(database.db, config, platform, marketplace, hubs))
      for (const rule of [...notificationGroups(database.db), ...chatGroups(platform.chat)])
        allowGroups?.(rule.hub, rule.kind, rule.check)
    },
  }
}

export type Api = ReturnType<typeof createApi>
