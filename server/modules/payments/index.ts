import { randomBytes } from 'node:crypto'
import type { DB } from '../../db/database.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import type { Config } from '../../config.ts'
import type { Logger } from '../../log.ts'
import type { ProjectsService } from '../projects/service.ts'
import type { ContractFunding } from '../projects/funding.ts'
import { createPaymentsService } from './service.ts'
import { createPaymentDetails } from './details.ts'
import { createSandboxGateway } from './gateways/sandbox.ts'
import { createSandboxCheckout } from './gateways/sandbox-checkout.ts'
import { createStripeGateway } from './gateways/stripe.ts'
import type { Gateway } from './gateways/gateway.ts'
import { paymentsRoutes } from './routes.ts'
import { createRefunds } from './refunds.ts'
import { createRefundSweeper, refundsRoutes } from './refunds-routes.ts'
import { createInvoices } from './invoices.ts'
import { invoicesRoutes } from './invoices-routes.ts'
import { createPayouts } from './payouts.ts'
import { periodicJob } from '../../jobs/periodic.ts'

/** The sandbox gateway's signing secret: SANDBOX_GATEWAY_SECRET, else one kept in the database and shared by every instance. */
function sandboxSecret(db: DB, config: Config) {
  return async () => {
    if (config.sandboxSecret) return config.sandboxSecret
    await db
      .insertInto('app_secret')
      .values({
        name: 'sandbox-gateway',
        value: randomBytes(32).toString('base64url'),
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute()
    return (
      await db
        .selectFrom('app_secret')
        .select('value')
        .where('name', '=', 'sandbox-gateway')
        .executeTakeFirstOrThrow()
    ).value
  }
}

/** Payouts left requested (a lost gateway answer) asked about every 15 minutes (decision 250). */
const payoutSweeper = (payouts: ReturnType<typeof createPayouts>, log: Logger) =>
  periodicJob(
    () =>
      payouts
        .sweep()
        .then(({ settled }) => settled && log.info({ settled }, 'reconciled payouts left requested'))
        .catch((error) => log.error({ err: error }, 'payout sweep failed')),
    15 * 60_000,
  )

// The payments module wired: Stripe when its keys are set, else the sandbox gateway; the service,
// whose money mover the projects service releases installments through; payouts and invoices. It
// is built on the projects' funding side (projects/funding.ts), before the projects service.
export function createPayments({
  db,
  dialect,
  config,
  contracts,
  log,
}: {
  db: DB
  dialect: Dialect
  config: Config
  contracts: ContractFunding
  log: Logger
}) {
  const sandboxGateway = createSandboxGateway(sandboxSecret(db, config))
  // With Stripe's keys set, Stripe is the only gateway: no payment can be started or confirmed with
  // the sandbox's test cards on a site that takes real money (decision 195); payouts go through it too.
  const stripeGateway = config.stripe
    ? createStripeGateway({ ...config.stripe, publicUrl: config.publicUrl })
    : undefined
  const gateways: Record<string, Gateway> = stripeGateway
    ? { [stripeGateway.name]: stripeGateway }
    : { [sandboxGateway.name]: sandboxGateway }
  const payouts = createPayouts({
    db,
    dialect,
    gateway: stripeGateway ?? sandboxGateway,
    minimumMinor: config.payoutMinimumMinor,
    log: (message, err) => log.warn({ err }, message),
  })
  const service = createPaymentsService({
    db,
    dialect,
    fees: config.fees,
    gateways,
    work: contracts,
    payoutEvents: payouts.applyEvent,
  })
  const details = createPaymentDetails({ db, fees: config.fees, work: contracts })
  const sandbox = createSandboxCheckout({ payments: service, gateway: sandboxGateway })
  const invoices = createInvoices({ db })
  return {
    service,
    details,
    sandbox,
    sandboxGateway,
    stripeGateway,
    invoices,
    payouts,
    routes: paymentsRoutes(service, details, sandbox, payouts),
    invoiceRoutes: invoicesRoutes(invoices),
    payoutSweep: payoutSweeper(payouts, log),
  }
}

export type Payments = ReturnType<typeof createPayments>

// Refund requests, built once the projects service exists: the auto-release of work left
// unanswered approves installments through it. The payments service hands gateway refund events to them.
export function createPaymentRefunds({
  db,
  dialect,
  config,
  payments,
  projects,
  log,
}: {
  db: DB
  dialect: Dialect
  config: Config
  payments: Payments
  projects: Pick<ProjectsService, 'contractForPayment' | 'autoRelease'>
  log: Logger
}) {
  const refunds = createRefunds({
    db,
    dialect,
    gateways: { [payments.sandboxGateway.name]: payments.sandboxGateway },
    responseDays: config.refundResponseDays,
    autoReleaseDays: config.autoReleaseDays,
    work: projects,
    release: payments.service.mover.release,
  })
  payments.service.setRefundEvents(refunds.applyEvent)
  return { refunds, routes: refundsRoutes(refunds), refundSweep: createRefundSweeper(refunds, log) }
}
