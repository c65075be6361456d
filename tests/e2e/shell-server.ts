import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { TestInfo } from '@playwright/test'
import { openDatabase, migrateToLatest, type Db } from '../../server/db/database.ts'
import { seedReference } from '../../server/db/seed.ts'
import { hashPassword } from '../../server/modules/identity/passwords.ts'
import type { DatabaseTarget } from '../../server/config.ts'

// The shell's signed-in tests need accounts without going through mail: this starts a server of
// its own (the built app) on the Playwright project's kind of database, after writing active,
// verified accounts of each role straight into that database.
const root = path.resolve(import.meta.dirname, '../..')
const postgresAdmin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const SHELL_PASSWORD = 'reinforced concrete 42'

export interface ShellAccount {
  email: string
  firstName: string
  lastName: string
  roles: number[]
  accountType: 'client' | 'company' | 'freelancer'
  imageFileId?: number
}

export const accounts = {
  client: { email: 'clara.client@example.test', firstName: 'Clara', lastName: 'Client', roles: [2], accountType: 'client', imageFileId: 987654 },
  company: { email: 'cora.company@example.test', firstName: 'Cora', lastName: 'Company', roles: [3], accountType: 'company' },
  freelancer: { email: 'fred.freelancer@example.test', firstName: 'Fred', lastName: 'Freelancer', roles: [4], accountType: 'freelancer' },
} satisfies Record<string, ShellAccount>

async function freePort() {
  const s = net.createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()))
  const port = (s.address() as net.AddressInfo).port
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

export async function startShellServer(testInfo: TestInfo) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-shell-e2e-'))
  let pgDatabase: string | null = null
  let target: DatabaseTarget = { kind: 'sqlite', file: path.join(dataDir, 'workneer.sqlite') }
  const env: Record<string, string> = { ...(process.env as Record<string, string>), NODE_ENV: 'production', LOG_LEVEL: 'warn', SEED_DEMO: 'false', E2E: '1', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir }
  delete env.DATABASE_URL
  delete env.REDIS_URL
  delete env.PUBLIC_URL
  delete env.SMTP_URL
  if (testInfo.project.name.includes('postgres')) {
    pgDatabase = `wk_shell_e2e_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: postgresAdmin })
    await admin.connect()
    await admin.query(`create database ${pgDatabase}`)
    await admin.end()
    const url = new URL(postgresAdmin)
    url.pathname = `/${pgDatabase}`
    env.DATABASE_URL = url.href
    target = { kind: 'postgres', url: url.href }
  }
  const db: Db = await openDatabase(target)
  await migrateToLatest(db)
  await seedReference(db.db)
  const now = new Date().toISOString()
  const hash = await hashPassword(SHELL_PASSWORD)
  for (const a of Object.values(accounts) as ShellAccount[]) {
    const { id } = await db.db
      .insertInto('app_user')
      .values({ email: a.email, email_verified: 1, password_hash: hash, first_name: a.firstName, last_name: a.lastName, account_type: a.accountType, status: 'Active', language: 'en', provider: 'local', image_file_id: a.imageFileId ?? null, created_at: now, updated_at: now } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const role of a.roles) await db.db.insertInto('user_role').values({ user_id: id, role }).execute()
  }

  let output = ''
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'server/boot.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  server.stdout!.on('data', (d) => (output += d))
  server.stderr!.on('data', (d) => (output += d))
  const deadline = Date.now() + 150_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server stopped:\n${output}`)
    try {
      if ((await fetch(`${base}/readyz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 250))
  }

  return {
    base,
    db,
    async stop() {
      await testInfo.attach('shell-server-output', { body: output, contentType: 'text/plain' })
      if (server.exitCode === null) {
        server.kill('SIGTERM')
        await new Promise((r) => server.once('exit', r))
      }
      await db.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
      if (pgDatabase) {
        const admin = new pg.Client({ connectionString: postgresAdmin })
        await admin.connect()
        await admin.query(`drop database if exists ${pgDatabase} with (force)`)
        await admin.end()
      }
    },
  }
}
