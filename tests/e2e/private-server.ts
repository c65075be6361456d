import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestInfo } from '@playwright/test'
import type { DatabaseTarget } from '#server/config.ts'
import { freePort, spawnServer } from '../support/server-process.ts'
import { startTwoInstances } from '../support/balancer.ts'
import {
  adminQuery,
  copyTemplate,
  emptyMarketplace,
  postgresAdmin,
  specDatabaseName,
  type Template,
} from './db-template.ts'

// A Workneer server of a spec's own (the built app), for specs that need settings or accounts the
// shared e2e servers do not have: on a free port, on the Playwright project's kind of database
// (a SQLite file, or a fresh PostgreSQL database dropped at the end), without demo data. The database
// starts as a copy of a template built once per run (tests/e2e/db-template.ts).

export interface PrivateServer {
  base: string
  /** Everything the server printed so far. */
  output(): string
  stop(): Promise<void>
}

export async function startPrivateServer(
  testInfo: TestInfo,
  options: {
    /** Names the folder and the PostgreSQL database (wk_<run>_<name>_…). */
    name: string
    /** Settings beyond the defaults; it may use the server's address (a provider's redirect URI). */
    env?: (base: string) => Record<string, string> | Promise<Record<string, string>>
    /** What the database starts as: by default migrated and seeded, as the server would leave it. */
    template?: Template
    /** Runs on the database (a copy of the template) before the server starts (accounts written directly). */
    beforeStart?: (target: DatabaseTarget) => Promise<void>
  },
): Promise<PrivateServer> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `workneer-${options.name}-e2e-`))
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
  }
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'PUBLIC_URL', 'SMTP_URL']) delete env[name]
  // Mailed links and sign-in callbacks point here (a production server that mails needs it).
  env.PUBLIC_URL = base
  let target: DatabaseTarget = { kind: 'sqlite', file: path.join(dataDir, 'workneer.sqlite') }
  let pgDatabase: string | null = null
  if (testInfo.project.name.includes('postgres')) {
    pgDatabase = specDatabaseName(options.name)
    const url = new URL(postgresAdmin)
    url.pathname = `/${pgDatabase}`
    env.DATABASE_URL = url.href
    target = { kind: 'postgres', url: url.href }
  }
  await copyTemplate(target, options.template ?? emptyMarketplace)
  Object.assign(env, await options.env?.(base))
  await options.beforeStart?.(target)

  // npm run proof: on PostgreSQL, two instances behind a balancer answer on `base` (issue 19 item 5).
  const server =
    pgDatabase && process.env.E2E_TWO_INSTANCES === '1'
      ? await startTwoInstances(env, port)
      : await spawnServer(base, env, { timeoutMs: 150_000, pollMs: 50 })

  return {
    base,
    output: server.output,
    async stop() {
      await server.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
      // Dropped while the next spec starts (it took 0.5-4 s, decision 350); the run's end drops what
      // is left (tests/e2e/global-setup.ts).
      if (pgDatabase) void adminQuery(`drop database if exists ${pgDatabase} with (force)`).catch(() => {})
    },
  }
}
