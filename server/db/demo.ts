import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { createApi } from '../api/index.ts'
import type { Config } from '../config.ts'
import type { Logger } from '../log.ts'
import { inOneTransaction } from './atomic.ts'
import type { DB, Db } from './database.ts'
import { demoClients, demoFreelancers } from './seed-data/demo.ts'
import { profilesDemoStep } from '../modules/profiles/demo.ts'
import { projectsDemoStep } from '../modules/projects/demo.ts'
import { chatDemoStep } from '../modules/chat/demo.ts'
import type { DemoStep, Services } from './demo-step.ts'

// The demo marketplace that a newcomer sees on the first start of an empty database (or with
// `npm run db:seed -- --demo`). After the accounts, each module's step runs in this order; steps
// use services, not tables. Add a module's step (from its own demo.ts) to this list.
const steps: DemoStep[] = [profilesDemoStep, projectsDemoStep, chatDemoStep]

/** Makes the demo marketplace through the services it is given; `loadDemo` makes it all or nothing. */
export async function seedDemo({
  services,
  log,
  password,
}: {
  services: Services
  log: Logger
  password?: string
}) {
  // A password per installation, never a default one; the log says it once.
  const demoPassword = password ?? `demo-${randomBytes(9).toString('base64url')}`
  const people = [
    ...demoClients.map((c) => ({
      accountType: c.kind === 'company' ? ('company' as const) : ('client' as const),
      firstName: c.firstName,
      lastName: c.lastName,
      companyName: c.companyName,
      email: c.email,
      language: 'en' as const,
    })),
    ...demoFreelancers.map((f) => ({
      accountType: 'freelancer' as const,
      firstName: f.firstName,
      lastName: f.lastName,
      email: f.email,
      language: 'en' as const,
    })),
  ]
  const accounts = await services.identity.createDemoAccounts(people, demoPassword)
  for (const step of steps) await step({ services, log, accounts })
  return { password: demoPassword, accounts }
}

const MARKER = 'demo'

const markerOf = (db: DB) =>
  db.selectFrom('seed_marker').selectAll().where('name', '=', MARKER).executeTakeFirst()

/**
 * Loads the demo marketplace once, whole or not at all (decision 098): every service call of it
 * runs inside one transaction that also marks the demo loaded, so a start stopped at any moment
 * (Ctrl-C, SIGTERM, a kill, a power cut) leaves none of it, and the next start loads it again.
 * `onlyIntoEmpty` (the server's first start) loads it only while no account exists; the seed
 * command loads it beside existing accounts. Returns null when there was nothing to do.
 */
export async function loadDemo({
  database,
  config,
  log,
  services,
  onlyIntoEmpty,
}: {
  database: Db
  config: Config
  log: Logger
  services: Services
  onlyIntoEmpty: boolean
}) {
  const marker = await markerOf(database.db)
  if (marker?.completed_at) return null
  if (onlyIntoEmpty && !(await services.identity.hasNoAccounts())) return null
  // Recorded on its own, before the work, so that the next start can tell a load that stopped.
  const now = new Date().toISOString()
  await database.db
    .insertInto('seed_marker')
    .values({ name: MARKER, attempts: 1, started_at: now, completed_at: null })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({ attempts: eb('seed_marker.attempts', '+', 1), started_at: now }))
        .where('seed_marker.completed_at', 'is', null),
    )
    .execute()

  log.info('loading the demo marketplace (in one transaction: whole or not at all)')
  const loaded = await inOneTransaction(database, async (trx) => {
    // Instances starting together on one PostgreSQL: one loads, the others wait here and then see it done.
    if (trx.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext('workneer: demo marketplace'))`.execute(trx.db)
    if ((await markerOf(trx.db))?.completed_at) return null
    if (marker)
      log.warn(
        { startedAt: marker.started_at, attempts: marker.attempts },
        'an earlier start stopped while loading the demo marketplace; none of it was kept, loading it again',
      )
    // The demo's own services, on the transaction. Side effects wait in the outbox for the server's
    // worker, which sees them only once they are committed; nothing is mailed or published from here.
    const api = createApi({
      database: trx,
      log,
      config: { ...config, smtpUrl: undefined, redisUrl: undefined },
    })
    try {
      await api.jobs.outbox.stop()
      if (onlyIntoEmpty && !(await api.services.identity.hasNoAccounts())) return null
      const result = await seedDemo({ services: api.services, log, password: config.demoPassword })
      await trx.db
        .updateTable('seed_marker')
        .set({ completed_at: new Date().toISOString() })
        .where('name', '=', MARKER)
        .execute()
      return result
    } finally {
      await api.jobs.close()
    }
  })
  if (loaded)
    log.info(
      { accounts: [...loaded.accounts.keys()] },
      `demo marketplace ready: sign in with any demo account and the password ${loaded.password}`,
    )
  return loaded
}
