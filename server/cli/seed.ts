import { loadConfig } from '../config.ts'
import { openDatabase, migrateToLatest } from '../db/database.ts'
import { seedReference } from '../db/seed.ts'
import { loadDemo } from '../db/demo.ts'
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
      try {
        // Once per database: a second run would add every demo project again.
        const loaded = await loadDemo({ database, config, log, services: api.services, onlyIntoEmpty: false })
        console.log(
          loaded
            ? `demo marketplace seeded: ${loaded.accounts.size} accounts, password ${loaded.password}`
            : 'the demo marketplace was loaded before: nothing to do',
        )
      } finally {
        await api.jobs.close()
      }
    }
  } finally {
    await database.close()
  }
})
