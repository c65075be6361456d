import type { TestInfo } from '@playwright/test'
import { openDatabase, type Db } from '#server/db/database.ts'
import { writeAccounts, type Account } from '../support/accounts.ts'
import { startPrivateServer } from './private-server.ts'
import type { Template } from './db-template.ts'
import { enableForTests, STEP_SECONDS, totpCode } from '#server/modules/identity/second-factor.ts'

// The shell's signed-in tests need accounts without going through mail: this starts a server of
// its own (the built app) on the Playwright project's kind of database, after writing active,
// verified accounts of each role straight into that database.
export const SHELL_PASSWORD = 'reinforced concrete 42'

export type ShellAccount = Account

export const accounts = {
  client: {
    email: 'clara.client@example.test',
    firstName: 'Clara',
    lastName: 'Client',
    roles: [2],
    accountType: 'client',
    imageFileId: 987654,
  },
  company: {
    email: 'cora.company@example.test',
    firstName: 'Cora',
    lastName: 'Company',
    roles: [3],
    accountType: 'company',
  },
  freelancer: {
    email: 'fred.freelancer@example.test',
    firstName: 'Fred',
    lastName: 'Freelancer',
    roles: [4],
    accountType: 'freelancer',
  },
  // Support: a SuperAdmin (there is no sign-up for one). Specs sign in with `signInAs` like anyone.
  admin: {
    email: 'sam.support@example.test',
    firstName: 'Sam',
    lastName: 'Support',
    roles: [1],
    accountType: 'client',
  },
} satisfies Record<string, ShellAccount>

// The SuperAdmin has an authenticator app (decision 260: administrators must), with this secret
// and these recovery codes, so `signInAs` and `shellApi().login` answer the second step. A code is
// accepted once, so sign-ins within one 30-second step use the next step's code, then recovery codes.
export const SHELL_TOTP_SECRET = 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU'
export const SHELL_RECOVERY_CODES = Array.from(
  { length: 60 },
  (_, i) => `shell-${String(i).padStart(4, '0')}`,
)
const spent = new Map<string, { steps: Set<number>; recovery: number }>()

/** A code for the shell SuperAdmin's second step on the server at `base` that this process has not used yet. */
export function shellAdminCode(base: string) {
  const used = spent.get(base) ?? { steps: new Set<number>(), recovery: 0 }
  spent.set(base, used)
  const now = Math.floor(Date.now() / 1000 / STEP_SECONDS)
  const step = [now, now + 1].find((s) => !used.steps.has(s))
  if (step === undefined) return SHELL_RECOVERY_CODES[used.recovery++]
  used.steps.add(step)
  return totpCode(SHELL_TOTP_SECRET, step * STEP_SECONDS * 1000)
}
/** Writes the shell's accounts, active and verified, straight into a migrated database. */
export async function writeShellAccounts(db: Db) {
  const list: ShellAccount[] = Object.values(accounts)
  const ids = await writeAccounts(db, list, SHELL_PASSWORD)
  for (const [i, a] of list.entries())
    if (a.roles.includes(1))
      await enableForTests(db.db, ids[i], SHELL_TOTP_SECRET, SHELL_RECOVERY_CODES, process.env.AUTH_SECRET)
}

/** The shell's accounts in a migrated, seeded database: every shell server's database is a copy. */
const shellTemplate: Template = { name: 'shell', fill: writeShellAccounts }

/** `env`: more settings for the server (a spec's gateway keys…). */
export async function startShellServer(
  testInfo: TestInfo,
  env: (base: string) => Record<string, string> = () => ({}),
) {
  let db: Db | undefined
  const server = await startPrivateServer(testInfo, {
    name: 'shell',
    env: (base) => ({ E2E: '1', ...env(base) }),
    template: shellTemplate,
    async beforeStart(target) {
      db = await openDatabase(target)
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
