import { randomBytes } from 'node:crypto'
import type { DB } from '../../db/database.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import type { Config } from '../../config.ts'
import type { ProjectsService } from '../projects/service.ts'
import { createPaymentsService } from './service.ts'
import { createPaymentDetails } from './details.ts'
import { createSandboxGateway } from './gateways/sandbox.ts'
import { createSandboxCheckout } from './gateways/sandbox-checkout.ts'
import { paymentsRoutes } from './routes.ts'
import { createPayouts } from './payouts.ts'

// The payments module wired: the sandbox gateway (its secret from SANDBOX_GATEWAY_SECRET, else one
// kept in the database and shared by every instance), the service, and the money mover the
// projects service calls when an installment is released.
export function createPayments({ db, dialect, config, projects, log }: { db: DB; dialect: Dialect; config: Config; projects: ProjectsService; log?: (message: string, error: unknown) => void }) {
  const sandboxGateway = createSandboxGateway(async () => {
    if (config.sandboxSecret) return config.sandboxSecret
    await db.insertInto('app_secret').values({ name: 'sandbox-gateway', value: randomBytes(32).toString('base64url'), created_at: new Date().toISOString() }).onConflict((oc) => oc.column('name').doNothing()).execute()
    return (await db.selectFrom('app_secret').select('value').where('name', '=', 'sandbox-gateway').executeTakeFirstOrThrow()).value
  })
  const payouts = createPayouts({ db, dialect, gateway: sandboxGateway, minimumMinor: config.payoutMinimumMinor, log })
  const service = createPaymentsService({ db, dialect, fees: config.fees, gateways: { [sandboxGateway.name]: sandboxGateway }, work: projects, payoutEvents: payouts.applyEvent })
  projects.setMoneyMover(service.mover)
  const details = createPaymentDetails({ db, fees: config.fees, work: projects })
  const sandbox = createSandboxCheckout({ payments: service, gateway: sandboxGateway })
  return { service, details, sandbox, sandboxGateway, payouts, routes: paymentsRoutes(service, details, sandbox, payouts) }
}
