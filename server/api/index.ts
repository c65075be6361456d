import path from 'node:path'
import { contentSecurityPolicy, newNonce } from '../http/security-headers.ts'
import type { Config } from '../config.ts'
import type { Db } from '../db/database.ts'
import type { Logger } from '../log.ts'
import { createCatalogueService } from '../modules/catalogue/service.ts'
import { createCacheBus } from '../lib/cache-bus.ts'
import { catalogueRoutes } from '../modules/catalogue/routes.ts'
import { createCatalogueAdmin } from '../modules/catalogue/admin.ts'
import { adminCatalogueRoutes } from '../modules/catalogue/admin-routes.ts'
import { createIdentityService, SESSIONS_ENDED_TOPIC, type Limits } from '../modules/identity/service.ts'
import { bearerOf, identityRoutes } from '../modules/identity/routes.ts'
import { createOidc } from '../modules/identity/oidc.ts'
import { createOutboxWorker } from '../jobs/outbox.ts'
import { createMailHandler, EMAIL_TOPIC } from '../jobs/mailer.ts'
import { createRateLimiter, type RateLimiter } from '../lib/rate-limit.ts'
import { createFileService } from '../modules/files/service.ts'
import { createFolderStorage } from '../modules/files/storage.ts'
import { filesRoutes } from '../modules/files/routes.ts'
import { createFileSweeper, fileOutboxHandlers } from '../modules/files/lifecycle.ts'
import { createContentService } from '../modules/content/service.ts'
import { contentRoutes } from '../modules/content/routes.ts'
import { createContentAdmin } from '../modules/content/admin.ts'
import { contentAdminRoutes } from '../modules/content/admin-routes.ts'
import { createProfilesService } from '../modules/profiles/service.ts'
import { profilesRoutes } from '../modules/profiles/routes.ts'
import { createProjectsService } from '../modules/projects/service.ts'
import { projectsRoutes } from '../modules/projects/routes.ts'
import { projectsOutboxHandlers } from '../modules/projects/outbox.ts'
import { paymentsOutboxHandlers } from '../modules/payments/outbox.ts'
import { createNotificationsService } from '../modules/notifications/service.ts'
import { notificationsRoutes } from '../modules/notifications/routes.ts'
import { notificationGroups } from '../modules/notifications/groups.ts'
import { createDashboardService } from '../modules/dashboard/service.ts'
import { dashboardRoutes } from '../modules/dashboard/routes.ts'
import { notificationsOutboxHandlers } from '../modules/notifications/outbox.ts'
import { createPayments } from '../modules/payments/index.ts'
import { createChatService } from '../modules/chat/service.ts'
import { chatRoutes } from '../modules/chat/routes.ts'
import { chatOutboxHandlers } from '../modules/chat/outbox.ts'
import { chatGroups } from '../modules/chat/groups.ts'
import { createComplaintsService } from '../modules/complaints/service.ts'
import { complaintsRoutes } from '../modules/complaints/routes.ts'
import { complaintsOutboxHandlers } from '../modules/complaints/outbox.ts'
import { createAdminMoney } from '../modules/admin-money/service.ts'
import { adminMoneyRoutes } from '../modules/admin-money/routes.ts'
import { createLedgerHealthMonitor } from '../modules/admin-money/health-monitor.ts'
import { createAdminUsersService } from '../modules/admin-users/service.ts'
import { adminUsersRoutes } from '../modules/admin-users/routes.ts'
import type { OutboxHandler } from '../jobs/outbox.ts'
import type { Hubs, HubsRuntime } from '../hubs.ts'
import { createApiHandler } from './handler.ts'
import { openApiDocument, openApiHtml } from './openapi.ts'

// Wires each module's service to its routes. Services are built once per process and shared by
// the API and the real-time hubs.
export function createApi({
  database,
  log,
  config,
  limits,
  rateLimiter,
  outboxPollMs,
}: {
  database: Db
  log: Logger
  config: Config
  limits?: Partial<Limits>
  rateLimiter?: RateLimiter
  outboxPollMs?: number
}) {
  // The outbox delivers side effects after commit: every commit that enqueued wakes it (the
  // database's commit watch), so services never call it; each module registers its topics here.
  const mailer = createMailHandler({ smtpUrl: config.smtpUrl, from: config.mailFrom, log })
  const outboxHandlers: Record<string, OutboxHandler> = { [EMAIL_TOPIC]: mailer.handler }
  const outbox = createOutboxWorker({
    db: database.db,
    onCommit: database.onCommit,
    log,
    handlers: outboxHandlers,
    pollMs: outboxPollMs,
  })
  const limiter =
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
  // What services keep in memory is forgotten on every instance at a write (decision 269): the server connects the bus to Redis.
  const caches = createCacheBus({
    onError: (error) =>
      log.warn({ err: error }, 'cache bus: other instances not told of a write; they forget at their TTL'),
  })
  const services = {
    catalogue: createCatalogueService(database.db),
    content: createContentService({
      db: database.db,
      rateLimiter: limiter,
      publicUrl: config.publicUrl,
      supportInbox: config.supportEmail,
      contactTicket: (trx, contact) => complaints.fromContact(trx, contact),
    }),
    files: createFileService({
      db: database.db,
      storage: createFolderStorage(path.join(config.dataDir, 'files')),
    }),
    identity: createIdentityService({
      db: database.db,
      log,
      rateLimiter: limiter,
      oidc: createOidc(config.oidcProviders),
      publicUrl: config.publicUrl,
      secret: config.authSecret,
      limits,
      profileCompleteness: (executor, userId) => profiles.percentFor(userId, executor),
      nameChanged: (executor, userId) => profiles.renamed(executor, userId),
    }),
  }
  const profiles = createProfilesService({
    db: database.db,
    dialect: database.dialect,
    files: services.files,
    bus: caches,
  })
  const notifications = createNotificationsService({ db: database.db })
  const chat = createChatService({ db: database.db, files: services.files, notifications })
  const projects = createProjectsService({
    db: database.db,
    dialect: database.dialect,
    files: services.files,
    chat,
    catalogue: services.catalogue,
  })
  const payments = createPayments({ db: database.db, dialect: database.dialect, config, projects, log })
  const complaints = createComplaintsService({
    db: database.db,
    dialect: database.dialect,
    files: services.files,
    publicUrl: config.publicUrl,
    money: payments.refunds,
  })
  const ledgerHealth = createLedgerHealthMonitor({ db: database.db, log })
  const adminMoney = createAdminMoney({
    db: database.db,
    dialect: database.dialect,
    payouts: payments.payouts,
    refunds: payments.refunds,
    health: ledgerHealth,
  })
  const contentAdmin = createContentAdmin({ db: database.db, files: services.files })
  const adminUsers = createAdminUsersService({
    db: database.db,
    dialect: database.dialect,
    identity: services.identity,
  })
  const catalogueAdmin = createCatalogueAdmin({
    db: database.db,
    files: services.files,
    indexes: { freelancer: profiles.renamed, project: projects.indexProject },
  })
  const dashboard = createDashboardService({ projects, notifications, profiles })
  // Hub messages leave through the outbox after commit; the hubs are attached once the server has them.
  let hubs: Hubs | null = null
  Object.assign(
    outboxHandlers,
    projectsOutboxHandlers({ db: database.db, projects, notifications, hubs: () => hubs }),
  )
  Object.assign(
    outboxHandlers,
    complaintsOutboxHandlers({ db: database.db, notifications, hubs: () => hubs }),
  )
  // An admin ended a user's sessions: their hub connections close now, on every instance.
  outboxHandlers[SESSIONS_ENDED_TOPIC] = async ({ userId }: { userId: number }) =>
    void (await hubs?.disconnectUser(userId))
  Object.assign(outboxHandlers, notificationsOutboxHandlers({ notifications, hubs: () => hubs }))
  Object.assign(outboxHandlers, paymentsOutboxHandlers({ db: database.db, notifications, hubs: () => hubs }))
  Object.assign(
    outboxHandlers,
    chatOutboxHandlers({
      db: database.db,
      chat,
      notifications,
      hubs: () => hubs,
      publicUrl: config.publicUrl,
    }),
  )
  // Released file bytes go after commit; bytes whose row is gone are swept hourly (modules/files/lifecycle.ts).
  Object.assign(outboxHandlers, fileOutboxHandlers({ db: database.db, storage: services.files.storage }))
  const fileSweep = createFileSweeper({
    db: database.db,
    storage: services.files.storage,
    log,
    releaseUnreferenced: () => services.files.releaseUnreferenced(),
  })
  const implementations = [
    ...catalogueRoutes(services.catalogue),
    ...contentRoutes(services.content),
    ...contentAdminRoutes(contentAdmin),
    ...identityRoutes(services.identity),
    ...filesRoutes(services.files),
    ...profilesRoutes(profiles),
    ...projectsRoutes(projects),
    ...notificationsRoutes(notifications),
    ...chatRoutes(chat),
    ...dashboardRoutes(dashboard),
    ...complaintsRoutes(complaints),
    ...adminCatalogueRoutes(catalogueAdmin),
    ...adminUsersRoutes(adminUsers),
    ...payments.routes,
    ...adminMoneyRoutes(adminMoney),
  ]
  const endpoints = implementations.map((i) => i.endpoint)
  let document: ReturnType<typeof openApiDocument> | undefined
  let html: string | undefined
  const handler = createApiHandler({
    implementations,
    log,
    authenticate: (request) => services.identity.authenticate(bearerOf(request)),
    validateResponses: !config.isProduction,
    extra: (request, path) => {
      if (request.method !== 'GET') return null
      if (path === 'openapi.json')
        return Response.json((document ??= openApiDocument(endpoints)), {
          headers: { 'cache-control': 'public, max-age=60' },
        })
      if (path === 'docs') {
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
      return null
    },
  })
  const jobs = {
    outbox,
    fileSweep,
    /** Auto-release and refunds the gateway was not asked for, hourly (modules/payments/refunds.ts). */
    refundSweep: payments.refundSweep,
    /** Payouts whose gateway answer was lost, every 15 minutes (modules/payments/payouts.ts). */
    payoutSweep: payments.payoutSweep,
    /** The ledger's health checks, every 15 minutes (modules/admin-money/health-monitor.ts); /metrics reads the last run. */
    ledgerHealth,
    async close() {
      await outbox.stop()
      await fileSweep.stop()
      await payments.refundSweep.stop()
      await payments.payoutSweep.stop()
      await ledgerHealth.job.stop()
      mailer.close()
      await limiter.close()
    },
  }
  return {
    handler,
    endpoints,
    services: {
      ...services,
      profiles,
      projects,
      notifications,
      chat,
      complaints,
      adminUsers,
      payments: payments.service,
      refunds: payments.refunds,
      payouts: payments.payouts,
      sandbox: payments.sandbox,
      sandboxGateway: payments.sandboxGateway,
      stripeGateway: payments.stripeGateway,
    },
    jobs,
    caches,
    /** Lets outbox deliveries reach browsers once the hubs exist, and registers the hub groups modules let browsers join (server/index.ts). */
    attachHubs(h: Hubs, allowGroups?: HubsRuntime['allowGroups']) {
      hubs = h
      for (const rule of [...notificationGroups(database.db), ...chatGroups(chat)])
        allowGroups?.(rule.hub, rule.kind, rule.check)
    },
  }
}

export type Api = ReturnType<typeof createApi>
