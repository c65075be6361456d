import path from 'node:path'
import { loadConfig } from '../config.ts'
import { openDatabase } from '../db/database.ts'
import { backup } from '../db/backup.ts'
import { runCli } from './run.ts'

// npm run db:backup [-- <folder>] — a consistent logical backup of the database (SQLite or
// PostgreSQL, as DATABASE_URL says) and the stored files, safe while the server runs (decision 263).
// Without a folder: DATA_DIR/backups/<time>.
await runCli(async () => {
  const config = loadConfig()
  const out = path.resolve(
    process.argv[2] ?? path.join(config.dataDir, 'backups', new Date().toISOString().replace(/[:.]/g, '-')),
  )
  const database = await openDatabase(config.database)
  try {
    const manifest = await backup(database, config.dataDir, out)
    const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0)
    console.log(
      `backed up ${Object.keys(manifest.tables).length} tables (${rows} rows) and ${manifest.files} files of ${manifest.dialect} to ${out}`,
    )
  } finally {
    await database.close()
  }
})
