import type { TestInfo } from '@playwright/test'
import { openDatabase, migrateToLatest, type Db } from '../../server/db/database.ts'
import { seedReference } from '../../server/db/seed.ts'
import { writeAccounts, type Account } from '../support/accounts.ts'
import { startPrivateServer } from './private-server.ts'

// The shell's signed-in tests need accounts without going through mail: this starts a server of
// its own (the built app) on the Playwright project's kind of database, after writing active,
// verified accounts of each role straight into that database.
export const SHELL_PASSWORD = 'reinforced concrete 42'

export type ShellAccount = Account

export const accounts = {
  client: { email: 'clara.client@example.test', firstName: 'Clara', lastName: 'Client', roles: [2], accountType: 'client', imageFileId: 987654 },
  company: { email: 'cora.company@example.test', firstName: 'Cora', lastName: 'Company', roles: [3], accountType: 'company' },
  freelancer: { email: 'fred.freelancer@example.test', firstName: 'Fred', lastName: 'Freelancer', roles: [4], accountType: 'freelancer' },
  // Support: a SuperAdmin (there is no sign-up for one). Specs sign in with `signInAs` like anyone.
  admin: { email: 'sam.support@example.test', firstName: 'Sam', lastName: 'Support', roles: [1], accountType: 'client' },
} satisfies Record<string, ShellAccount>

/** Writes the shell's accounts, active and verified, straight into a migrated database. */
export const writeShellAccounts = (db: Db) => writeAccounts(db, Object.values(accounts), SHELL_PASSWORD)

/** `env`: more settings for the server (a spec's gateway keys…). */
export async function startShellServer(testInfo: TestInfo, env: (base: string) => Record<string, string> = () => ({})) {
  let db: Db | undefined
  const server = await startPrivateServer(testInfo, {
    name: 'shell',
    env: (base) => ({ E2E: '1', ...env(base) }),
    async beforeStart(target) {
      db = await openDatabase(target)
      await migrateToLatest(db)
      await seedReference(db.db)
      await writeShellAccounts(db)
    },
  })
  return {
    base: server.base,
    db: db!,
    async stop() {
      await testInfo.attach('shell-server-output', { body: server.output(), contentType: 'text/plain' })
      // Our handle goes first: the server's stop drops a PostgreSQL database with force.
      await db!.close().finally(() => server.stop())
    },
  }
}
