import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { openDatabase, migrateToLatest } from '#server/db/database.ts'
import { seedReference } from '#server/db/seed.ts'
import { enableForTests } from '#server/modules/identity/second-factor.ts'
import { Role } from '#server/modules/identity/permissions.ts'
import { signInWithCode, writeAccounts, type Account } from '../support/accounts.ts'
import { freePort, spawnServer } from '../support/server-process.ts'

// The built server (run `npm run build` first) on a SQLite file of its own, with one active,
// verified client account written straight into the database, for tests that speak raw HTTP to
// the pages as a browser (or an attacker) would. What pages do with a request does not depend on
// the database, so one kind is enough here.
export const PAGE_ACCOUNT = { email: 'paula.pages@example.test', password: 'load-bearing walls 7' }

export interface PageServer {
  base: string
  /** A private project file of the account. */
  fileId: number
  /** The server's SQLite file, for a test that sets up what no API makes yet (an hourly contract). */
  databaseFile: string
  output(): string
  /**
   * A session cookie (`session=…`) of the account (the client's unless said), signed in through the
   * login form, or through the API's two steps for an account with an authenticator app.
   */
  signIn(account?: { email: string; password: string; totpSecret?: string }): Promise<string>
  stop(): Promise<void>
}

/** With `freelancer`: a second account, an active freelancer without a profile yet (not listed until it has a title). */
export const PAGE_FREELANCER = { email: 'felix.pages@example.test', password: 'cantilevered stairs 9' }
/** With `admin`: a SuperAdmin, with an authenticator app of this secret (administrators must have one). */
export const PAGE_ADMIN = {
  email: 'ada.pages@example.test',
  password: 'reinforced columns 3',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
}

export async function startPageServer(
  env: Record<string, string> = {},
  { freelancer = false, admin = false } = {},
): Promise<PageServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-pages-'))
  const db = await openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'workneer.sqlite') })
  await migrateToLatest(db)
  await seedReference(db.db)
  // Each account has its own password, so each is written on its own.
  const write = async (account: { email: string; password: string }, person: Omit<Account, 'email'>) =>
    (await writeAccounts(db, [{ email: account.email, ...person }], account.password))[0]!
  const id = await write(PAGE_ACCOUNT, {
    firstName: 'Paula',
    lastName: 'Pages',
    accountType: 'client',
    roles: [Role.Client],
  })
  if (freelancer)
    await write(PAGE_FREELANCER, {
      firstName: 'Felix',
      lastName: 'Pages',
      accountType: 'freelancer',
      roles: [Role.Freelancer],
    })
  if (admin) {
    const person: Omit<Account, 'email'> = {
      firstName: 'Ada',
      lastName: 'Pages',
      accountType: 'client',
      roles: [Role.SuperAdmin],
    }
    await enableForTests(db.db, await write(PAGE_ADMIN, person), PAGE_ADMIN.totpSecret)
  }
  const now = new Date().toISOString()
  // A project file of the account (its row is enough: a visitor is turned away before the bytes).
  const file = await db.db
    .insertInto('stored_file')
    .values({
      owner_id: id,
      purpose: 'project',
      original_name: 'quantities.csv',
      mime: 'text/csv',
      type: 'csv',
      attachment_type: 4,
      size: 3,
      sha256: 'a'.repeat(64),
      storage_key: 'missing',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.close()

  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const childEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    ...env,
  }
  const server = await spawnServer(base, childEnv, { timeoutMs: 60_000 })

  return {
    base,
    fileId: file.id,
    databaseFile: path.join(dataDir, 'workneer.sqlite'),
    output: server.output,
    async signIn(account: { email: string; password: string; totpSecret?: string } = PAGE_ACCOUNT) {
      if (account.totpSecret) return `session=${await signInWithCode(base, account, account.totpSecret)}`
      const body = new URLSearchParams({ email: account.email, password: account.password })
      const response = await fetch(`${base}/auth/login`, {
        method: 'POST',
        body,
        headers: { origin: base },
        redirect: 'manual',
      })
      const cookie = response.headers.getSetCookie().find((c) => c.startsWith('session='))
      if (response.status !== 302 || !cookie) throw new Error(`sign-in failed: ${response.status}`)
      return cookie.split(';', 1)[0]!
    },
    async stop() {
      await server.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The page server of a test file (`options` as startPageServer's), started before its tests with the account signed in, stopped after them. */
export function signedInPageServer(options: { freelancer?: boolean; admin?: boolean } = {}) {
  const state = { server: undefined as unknown as PageServer, session: '' }
  beforeAll(async () => {
    state.server = await startPageServer({}, options)
    state.session = await state.server.signIn()
  }, 90_000)
  afterAll(() => state.server?.stop())
  return state
}
