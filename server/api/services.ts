import path from 'node:path'
import type { Config } from '../config.ts'
import type { Db } from '../db/database.ts'
import type { Logger } from '../log.ts'
import { createCatalogueService } from '../modules/catalogue/service.ts'
import { createCatalogueAdmin } from '../modules/catalogue/admin.ts'
import { createIdentityService, type Limits } from '../modules/identity/service.ts'
import { createOidc } from '../modules/identity/oidc.ts'
import type { RateLimiter } from '../lib/rate-limit.ts'
import { createFileService } from '../modules/files/service.ts'
import { createFolderStorage } from '../modules/files/storage.ts'
import { createContentService } from '../modules/content/service.ts'
import { accountNewsletter } from '../modules/content/account-newsletter.ts'
import { createContentAdmin } from '../modules/content/admin.ts'
import { createProfilesService } from '../modules/profiles/service.ts'
import { createProjectsService } from '../modules/projects/service.ts'
import { createMoneyMover } from '../modules/payments/release.ts'
import { createDeliverables } from '../modules/projects/deliverables/service.ts'
import { createNotificationsService } from '../modules/notifications/service.ts'
import { accountClosingBlocker } from '../modules/payments/closing-blocker.ts'
import { createDashboardService } from '../modules/dashboard/service.ts'
import { createPayments } from '../modules/payments/index.ts'
import type { RefundDeps } from '../modules/payments/refund-rows.ts'
import { createChatService } from '../modules/chat/service.ts'
import { createComplaintsService } from '../modules/complaints/service.ts'
import { fileDisputeTicket } from '../modules/complaints/dispute-ticket.ts'
import { createAdminMoney } from '../modules/admin-money/service.ts'
import { createLedgerHealthMonitor } from '../modules/admin-money/health-monitor.ts'
import { createAdminUsersService } from '../modules/admin-users/service.ts'
import { createChangeOrders } from '../modules/projects/change-orders/service.ts'
import { createChangeOrderMoney } from '../modules/payments/change-order-money.ts'
import { createInvitations } from '../modules/projects/invitations/service.ts'
import { createProjectViews } from '../modules/projects/views.ts'
import { createTimesheets } from '../modules/projects/timesheets/service.ts'
import { createAlertsService } from '../modules/alerts/service.ts'
import { createDataExports } from '../modules/data-export/service.ts'
import { createFavourites } from '../modules/favourites/service.ts'
import { createShortlist } from '../modules/projects/shortlist/service.ts'
import { createVerificationService } from '../modules/verification/service.ts'
import { createHiringService } from '../modules/hiring/service.ts'
import { createSigningSecret } from '../modules/identity/signing-secret.ts'

// The modules' services, built once per process in dependency order: what the marketplace stands
// on, the marketplace itself, then the site and the admin area over both. The API's routes, jobs and
// hubs are wired to them (index.ts).

/** What the API is built from (createApi in index.ts); tests hand in their own limits and rate limiter. */
export type Options = {
  database: Db
  log: Logger
  config: Config
  limits?: Partial<Limits>
  rateLimiter?: RateLimiter
  outboxPollMs?: number
}

/** Files, the catalogue, people (profiles and identity), notifications and chat: what the marketplace stands on. */
export function createPlatform(options: Options, limiter: RateLimiter) {
  const { database, log, config } = options
  const db = database.db
  const files = createFileService({ db, storage: createFolderStorage(path.join(config.dataDir, 'files')) })
  const catalogue = createCatalogueService(db)
  const profiles = createProfilesService({ db, dialect: database.dialect, files })
  const identity = createIdentityService({
    db,
    log,
    rateLimiter: limiter,
    oidc: createOidc(config.oidcProviders),
    publicUrl: config.publicUrl,
    secret: config.authSecret,
    limits: options.limits,
    profileCompleteness: (executor, userId) => profiles.percentFor(userId, executor),
    nameChanged: (executor, userId) => profiles.renamed(executor, userId),
    closingBlocker: accountClosingBlocker,
  })
  const notifications = createNotificationsService({
    db,
    mails: { publicUrl: config.publicUrl },
    pushToLoopback: config.env === 'test',
    newsletter: accountNewsletter(db, config.publicUrl),
  })
  const chat = createChatService({ db, files, notifications })
  // The digests' unsubscribe links are signed with the secret that signs sessions (a key of their own is derived from it).
  const secret = createSigningSecret(db, config.authSecret)
  const alerts = createAlertsService({
    db,
    notifications,
    publicUrl: config.publicUrl,
    secret: () => secret(),
  })
  // Archives of people's data live apart from uploads, which are swept by their own rules (decision 331).
  const dataExports = createDataExports({
    ...{ db, dialect: database.dialect, publicUrl: config.publicUrl, uploads: files.storage },
    archives: createFolderStorage(path.join(config.dataDir, 'exports')),
  })
  // Saved freelancers are shown as Find Freelancers shows them (decision 336).
  const favourites = createFavourites({ db, hits: profiles.hits })
  const verification = createVerificationService({ db, files, notifications, publicUrl: config.publicUrl })
  // Hiring with Workneer's help shows the proposed freelancers as Find Freelancers does (decision 338).
  const hiring = createHiringService({ db, dialect: database.dialect, hits: profiles.hits })
  return {
    files,
    catalogue,
    profiles,
    identity,
    notifications,
    chat,
    alerts,
    dataExports,
    favourites,
    verification,
    hiring,
  }
}
export type Platform = ReturnType<typeof createPlatform>

/**
 * Projects, payments and complaints, in dependency order: the money mover that releases installments,
 * the projects service over it, payments and refunds over both; complaints settle disputes through refunds.
 */
export function createMarketplace({ database, log, config }: Options, { files, chat }: Platform) {
  const { db, dialect } = database
  const mover = createMoneyMover({ dialect, fees: config.fees, platform: config.platform })
  const projects = createProjectsService({ db, dialect, files, chat, moneyMover: mover })
  // A disputed refund request becomes a ticket in support's queue (decision 313).
  const fileDispute: RefundDeps['fileDispute'] = (trx, request) =>
    fileDisputeTicket(trx, config.publicUrl, request)
  const payments = createPayments({ db, dialect, config, log, projects, mover, fileDispute })
  const deliverables = createDeliverables({ db, dialect, files, publicUrl: config.publicUrl })
  const complaints = createComplaintsService({
    db,
    dialect,
    files,
    publicUrl: config.publicUrl,
    money: payments.refunds,
  })
  const changeOrders = createChangeOrders({
    db,
    dialect,
    // Refunds go back through the gateways the refunds use (payments/index.ts).
    money: createChangeOrderMoney({
      db,
      dialect,
      gateways: { [payments.sandboxGateway.name]: payments.sandboxGateway },
    }),
    publicUrl: config.publicUrl,
  })
  const timesheets = createTimesheets({
    db,
    dialect,
    clientFeeBps: config.fees.clientBps,
    publicUrl: config.publicUrl,
    // An approved week is charged to the client's saved card, or they are told to pay it (decision
    // 324), recorded in the approval's transaction (decision 344).
    charge: (trx, week) => payments.service.recordSavedCharge(trx, week),
    log: (message, err) => log.error({ err }, message),
  })
  const shortlist = createShortlist({ db, files })
  // Invitations and private projects (decision 335).
  const invitations = createInvitations({ db, dialect, views: createProjectViews({ db, files }) })
  return { projects, payments, complaints, changeOrders, deliverables, timesheets, shortlist, invitations }
}
export type Marketplace = ReturnType<typeof createMarketplace>

/** The public site's content (its contact form opens a complaint ticket) and the admin area. */
export function createSiteAndAdmin(options: Options, limiter: RateLimiter, p: Platform, m: Marketplace) {
  const { database, log, config } = options
  const { db, dialect } = database
  const content = createContentService({
    db,
    rateLimiter: limiter,
    publicUrl: config.publicUrl,
    supportInbox: config.supportEmail,
    contactTicket: (trx, contact) => m.complaints.fromContact(trx, contact),
  })
  const ledgerHealth = createLedgerHealthMonitor({ db, log })
  return {
    content,
    ledgerHealth,
    adminMoney: createAdminMoney({
      db,
      dialect,
      payouts: m.payments.payouts,
      refunds: m.payments.refunds,
      health: ledgerHealth,
    }),
    contentAdmin: createContentAdmin({ db, files: p.files }),
    adminUsers: createAdminUsersService({ db, dialect, identity: p.identity }),
    catalogueAdmin: createCatalogueAdmin({
      db,
      files: p.files,
      indexes: { freelancer: p.profiles.renamed, project: m.projects.indexProject },
    }),
    dashboard: createDashboardService({
      projects: m.projects,
      notifications: p.notifications,
      profiles: p.profiles,
    }),
  }
}
export type SiteAndAdmin = ReturnType<typeof createSiteAndAdmin>
