import type { Config } from '../config.ts'
import type { Logger } from '../log.ts'
import { migrateToLatest, type Db } from './database.ts'
import { seedReference } from './seed.ts'
import type { Services } from './demo-step.ts'
import { loadDemo } from './demo.ts'

// What a start does to the database before it serves. Each step is whole or not at all, so a start
// stopped anywhere is finished by the next one: all pending migrations commit together, the
// reference seed is one idempotent transaction, and the demo marketplace loads in one transaction
// (decision 098).
export async function prepareDatabase({
  database,
  config,
  log,
  services,
}: {
  database: Db
  config: Config
  log: Logger
  services: Services
}) {
  const applied = await migrateToLatest(database)
  if (applied.length) log.info({ applied }, 'migrations applied')
  await seedReference(database.db)
  if (config.seedDemo) await loadDemo({ database, config, log, services, onlyIntoEmpty: true })
}
