import { randomBytes } from 'node:crypto'
import { dropRunDatabases, TEMPLATE_RUN } from './db-template.ts'

// Names this run's databases (tests/e2e/db-template.ts) for every worker, which inherit the runner's
// environment, and drops its templates and any spec database still there when the run ends.
export default function globalSetup() {
  const id = (process.env[TEMPLATE_RUN] = randomBytes(4).toString('hex'))
  return async () => {
    try {
      await dropRunDatabases(id)
    } catch (error) {
      // A run without PostgreSQL (SQLite projects only) built no template there.
      if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw error
    }
  }
}
