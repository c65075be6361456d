import { loadConfig } from '../config.ts'
import { openDatabase, migrateToLatest } from '../db/database.ts'
import { runCli } from './run.ts'

// npm run db:migrate — applies pending migrations (the server also does this at start).
await runCli(async () => {
  const database = await openDatabase(loadConfig().database)
  try {
    const applied = await migrateToLatest(database)
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the schema is up to date')
  } finally {
    await database.close()
  }
})
