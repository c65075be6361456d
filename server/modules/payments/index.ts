import { appSecret } from '#server/db/app-secrets.ts'
import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Config } from '#server/config.ts'
import type { Logger } from '#server/log.ts'
import type { ProjectsService } from '../projects/service.ts'
import { createPaymentsService } from './service.ts'
import type { MoneyMover } from '../projects/service.ts'
import { createPaymentDetails } from './details.ts'
import { createSandboxGateway } from './gateways/sandbox.ts'
import { createSandboxCheckout } from './gateways/sandbox-checkout.ts'
import { createStripeGateway } from './gateways/stripe.ts'
import type { Gateway } from './gateways/gateway.ts'
import { paymentsRoutes } from './routes.ts'
import { createRefunds } from './refunds.ts'
import type { RefundDeps } from './refund-rows.ts'
import { createRefundSweeper, refundsRoutes } from './refunds-routes.ts'
import { createInvoices } from './invoices.ts'
import { invoicesRoutes } from './invoices-routes.ts'
import { createInvoiceDetails } from './invoice-details.ts'
import { createPayouts, type Payouts } from './payouts.ts'
import { createPayoutAccounts } from './payout-accounts.ts'
import { createSandboxOnboarding } from './gateways/sandbox-onboarding.ts'
import { periodicJob } from '#server/jobs/periodic.ts'

/** The sandbox gateway's signing secret: SANDBOX_GATEWAY_SECRET, else one kept in the database and shared by every instance. */
const sandboxSecret = async (db: DB, config: Config) =>
  config.sandboxSecret || appSecret(db, 'sandbox-gateway')

/** Payouts left requested (a lost gateway answer) asked about every 15 minutes (decision 250). */
const payoutSweeper = (payouts: Payouts, log: Logger) =>
  periodicJob(
    () =>
      payouts
        .sweep()
        .then(({ settled }) => settled && log.info({ settled }, 'reconciled payouts left requested'))
        .catch((error) => log.error({ err: error }, 'payout sweep failed')),
    15 * 60_000,
  )

function gatewaysOf(db: DB, config: Config) {
  const sandboxGateway = createSandboxGateway(() => sandboxSecret(db, config))
  // With Stripe's keys set, Stripe is the only gateway: no payment can be started or confirmed with
  // the sandbox's test cards on a site that takes real money (decision 195); payouts and payout
  // accounts go through it too (decision 333).
  const stripeGateway = config.stripe
    ? createStripeGateway({ ...config.stripe, publicUrl: config.publicUrl })
    : undefined
  const gateways: Record<string, Gateway> = stripeGateway
    ? { [stripeGateway.name]: stripeGateway }
    : { [sandboxGateway.name]: sandboxGateway }
  return { sandboxGateway, stripeGateway, gateways, payoutGateway: stripeGateway ?? sandboxGateway }
}

// The payments module wired: Stripe when its keys are set, else the sandbox gateway, the money
// mover (made first, release.ts) that releases installments, and the services over them.
export function createPayments({
  db,
  dialect,
  config,
  projects,
  mover,
  log,
  fileDispute,
}: {
  db: DB
  dialect: Dialect
  config: Config
  projects: ProjectsService
  mover: MoneyMover
  log: Logger
  fileDispute: RefundDeps['fileDispute']
}) {
  const { sandboxGateway, stripeGateway, gateways, payoutGateway } = gatewaysOf(db, config)
  const payouts = createPayouts({
    db,
    dialect,
    gateway: payoutGateway,
    minimumMinor: config.payoutMinimumMinor,
    log: (message, err) => log.warn({ err }, message),
  })
  const payoutAccounts = createPayoutAccounts({ db, dialect, gateway: payoutGateway })
  const refunds = createRefunds({
    db,
    dialect,
    gateways: { [sandboxGateway.name]: sandboxGateway },
    responseDays: config.refundResponseDays,
    autoReleaseDays: config.autoReleaseDays,
    disputeDecisionDays: config.disputeDecisionDays,
    fileDispute,
    work: projects,
    release: mover.release,
  })
  const service = createPaymentsService({
    db,
    dialect,
    fees: config.fees,
    gateways,
    work: projects,
    refundEvents: refunds.applyEvent,
    payoutEvents: payouts.applyEvent,
    accountEvents: payoutAccounts.applyEvent,
  })
  const details = createPaymentDetails({ db, fees: config.fees, work: projects })
  const sandbox = createSandboxCheckout({ payments: service, gateway: sandboxGateway })
  const onboarding = {
    accounts: payoutAccounts,
    // On a site paid through Stripe the sandbox opens no accounts and its page is not found.
    sandbox: createSandboxOnboarding({
      payments: service,
      gateway: sandboxGateway,
      accounts: payoutAccounts,
      open: !stripeGateway,
    }),
  }
  const invoices = createInvoices({ db })
  const invoiceDetails = createInvoiceDetails({ db })
  return {
    service,
    mover,
    details,
    sandbox,
    sandboxGateway,
    stripeGateway,
    invoices,
    payouts,
    routes: [
      ...paymentsRoutes(service, details, sandbox, payouts, onboarding),
      ...refundsRoutes(refunds),
      ...invoicesRoutes(invoices, invoiceDetails),
    ],
    refunds,
    refundSweep: createRefundSweeper(refunds, log),
    payoutSweep: payoutSweeper(payouts, log),
  }
}
