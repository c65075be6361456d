import type { Api } from '../api/index.ts'
import type { Logger } from '../log.ts'

// A module's part of the demo marketplace (server/db/demo.ts runs the steps in order): its own
// demo.ts exports one step, so the demo's runner and the steps need only this file in common.

export type Services = Api['services']
/** What each demo step gets: the services (modules are reached only through them) and the accounts made so far. */
export interface DemoContext {
  services: Services
  log: Logger
  /** Demo account ids by email. */
  accounts: Map<string, number>
}
export type DemoStep = (ctx: DemoContext) => Promise<void>
