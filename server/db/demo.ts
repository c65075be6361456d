import { randomBytes } from 'node:crypto'
import type { Api } from '../api/index.ts'
import type { Logger } from '../log.ts'
import { demoClients, demoFreelancers } from './seed-data/demo.ts'
import { profilesDemoStep } from '../modules/profiles/demo.ts'
import { projectsDemoStep } from '../modules/projects/demo.ts'

export type Services = Api['services']
/** What each demo step gets: the services (modules are reached only through them) and the accounts made so far. */
export interface DemoContext {
  services: Services
  log: Logger
  /** Demo account ids by email. */
  accounts: Map<string, number>
}
export type DemoStep = (ctx: DemoContext) => Promise<void>

// The demo marketplace that a newcomer sees on the first start of an empty database (or with
// `npm run db:seed -- --demo`). After the accounts, each module's step runs in this order; steps
// use services, not tables. Add a module's step (from its own demo.ts) to this list.
const steps: DemoStep[] = [profilesDemoStep, projectsDemoStep]

export async function seedDemo({ services, log, password }: { services: Services; log: Logger; password?: string }) {
  // A password per installation, never a default one; the log says it once.
  const demoPassword = password ?? `demo-${randomBytes(9).toString('base64url')}`
  const accounts = new Map<string, number>()
  for (const c of demoClients) {
    const id = await services.identity.createDemoAccount({ accountType: c.kind === 'company' ? 'company' : 'client', firstName: c.firstName, lastName: c.lastName, companyName: c.companyName, email: c.email, password: demoPassword, language: 'en' })
    accounts.set(c.email, id)
  }
  for (const f of demoFreelancers) {
    const id = await services.identity.createDemoAccount({ accountType: 'freelancer', firstName: f.firstName, lastName: f.lastName, email: f.email, password: demoPassword, language: 'en' })
    accounts.set(f.email, id)
  }
  for (const step of steps) await step({ services, log, accounts })
  log.info({ accounts: [...accounts.keys()] }, `demo marketplace ready: sign in with any demo account and the password ${demoPassword}`)
  return { password: demoPassword, accounts }
}
