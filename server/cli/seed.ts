import { loadConfig } from '../config.ts'
import { openDatabase, migrateToLatest } from '../db/database.ts'
import { seedReference } from '../db/seed.ts'
import { seedDemo } from '../db/demo.ts'
import { createApi } from '../api/index.ts'
import { createLogger } from '../log.ts'
import { runCli } from './run.ts'

// npm run db:seed [-- --demo] — the catalogue and reference lists; with --demo, a living marketplace.
await runCli(async () => {
  const demo = process.argv.includes('--demo')
  const config = loadConfig()
  const database = await openDatabase(config.database)
  try {
    await migrateToLatest(database)
    await seedReference(database.db)
    console.log('catalogue and reference lists seeded')
    if (demo) {
      const log = createLogger('warn')
      const api = createApi({ database, log, config })
      const { password, accounts } = await seedDemo({ services: api.services, log, password: config.demoPassword })
      console.log(`demo marketplace seeded: ${accounts.size} accounts, password ${password}`)
      await api.jobs.close()
    }
  } finally {
    await database.close()
  }
})
