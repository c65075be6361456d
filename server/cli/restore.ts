import path from 'node:path'
import { loadConfig } from '../config.ts'
import { openDatabase } from '../db/database.ts'
import { restore } from '../db/backup.ts'
import { runCli } from './run.ts'

// npm run db:restore -- <folder> — replaces every row and stored file with the backup's (decision
// 263). Stop the server first: the restore is one transaction, but a running server keeps what it
// holds in memory (kept pages, sessions it read) until it restarts.
await runCli(async () => {
  const from = process.argv[2]
  if (!from) {
    console.error('usage: npm run db:restore -- <backup folder>')
    process.exit(2)
  }
  const config = loadConfig()
  const database = await openDatabase(config.database)
  try {
    const result = await restore(database, config.dataDir, path.resolve(from))
    const rows = Object.values(result.tables).reduce((a, b) => a + b, 0)
    console.log(
      `restored ${Object.keys(result.tables).length} tables (${rows} rows) and ${result.files} files from ${from}`,
    )
  } finally {
    await database.close()
  }
})
