import { loadConfig } from '../config.ts'
import { openDatabase, migrateToLatest } from '../db/database.ts'
import { seedDemo, seedReference } from '../db/seed.ts'
import { runCli } from './run.ts'

// npm run db:seed [-- --demo] — the catalogue and reference lists; with --demo, a living marketplace.
await runCli(async () => {
  const demo = process.argv.includes('--demo')
  const database = await openDatabase(loadConfig().database)
  try {
    await migrateToLatest(database)
    await seedReference(database.db)
    console.log('catalogue and reference lists seeded')
    if (demo) {
      await seedDemo(database.db)
      console.log('demo marketplace seeded')
    }
  } finally {
    await database.close()
  }
})
