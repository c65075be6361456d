import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, inject } from 'vitest'
import type { DatabaseTarget } from '#server/config.ts'
import { openDatabase, migrateToLatest, type Db } from '#server/db/database.ts'
import type { Database } from '#server/db/schema.ts'
import { seedReference } from '#server/db/seed.ts'
import { madeTestDatabase, droppedInUse, droppedLater } from './leftovers.ts'
import { postgresAdminUrl } from './postgres-admin.ts'
import { untilUnused } from './database-templates.ts'

// Integration tests run against both databases the product supports: a real SQLite file and a
// real PostgreSQL database created for the test and dropped after it. PostgreSQL is required:
// when it cannot be reached the tests fail instead of silently covering one database only.
export { postgresAdminUrl }
export const dialects = ['sqlite', 'postgres'] as const
export type TestDialect = (typeof dialects)[number]

// What differs between the databases (locking and races, SQL written per dialect, search, migrations)
// runs on both everywhere. A suite whose code under test does not differ takes `portableDialects`:
// PostgreSQL alone, unless PORTABLE_SUITES_ON says sqlite or both; `npm run proof`'s part
// sqlite-suites runs those suites on SQLite (decision 351).
const portableOn = process.env.PORTABLE_SUITES_ON ?? 'postgres'
export const portableDialects: readonly TestDialect[] =
  portableOn === 'both' ? dialects : dialects.filter((d) => d === portableOn)
if (!portableDialects.length)
  throw new Error(`PORTABLE_SUITES_ON: ${portableOn} is not sqlite, postgres or both`)

export type OpenOptions = { migrate?: boolean; seed?: boolean }
/** `migrated`: a copy of the run's migrated and seeded template (database-templates.ts), not an empty database. */
export type CreateOptions = { migrated?: boolean }

export interface TestDatabase {
  target: DatabaseTarget
  /** Opens (and migrates and seeds, unless told not to) a handle on this database. */
  open(options?: OpenOptions): Promise<Db>
  drop(): Promise<void>
}

export async function createTestDatabase(
  dialect: TestDialect,
  { migrated = false }: CreateOptions = {},
): Promise<TestDatabase> {
  const template = migrated ? inject('databaseTemplates') : undefined
  // A copy of the template is already migrated and seeded: opening it with the defaults does neither again.
  const open = (target: DatabaseTarget) => (o: OpenOptions | undefined) =>
    openPrepared(target, template && o?.migrate !== false ? { migrate: false } : o)
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-test-'))
    const target: DatabaseTarget = { kind: 'sqlite', file: path.join(dir, 'test.sqlite') }
    madeTestDatabase({ kind: 'sqlite', dir })
    if (template) fs.copyFileSync(template.sqliteFile, target.file)
    return {
      target,
      open: open(target),
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    }
  }
  const name = `wk_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgresAdminUrl })
  try {
    await admin.connect()
  } catch (error) {
    throw new Error(
      `PostgreSQL is required for the integration tests and is not reachable at ${postgresAdminUrl}: ${(error as Error).message}`,
    )
  }
  await admin.query(`create database ${name}${template ? ` template ${template.postgresName}` : ''}`)
  await admin.end()
  madeTestDatabase({ kind: 'postgres', name, adminUrl: postgresAdminUrl })
  const url = new URL(postgresAdminUrl)
  url.pathname = `/${name}`
  const target: DatabaseTarget = { kind: 'postgres', url: url.href }
  return {
    target,
    open: open(target),
    async drop() {
      const c = new pg.Client({ connectionString: postgresAdminUrl })
      await c.connect()
      // A forced drop while a closed pool's sockets are still closing would kill a connection the
      // pool still holds (an unhandled error): wait for them (up to 10 s, a loaded machine is slow).
      const left = await untilUnused(c, name)
      if (left) droppedInUse(name, left)
      await c.query(`drop database if exists ${name} with (force)`)
      await c.end()
    },
  }
}

async function openPrepared(target: DatabaseTarget, { migrate = true, seed = true } = {}) {
  const db = await openDatabase(target)
  if (migrate) await migrateToLatest(db)
  if (migrate && seed) await seedReference(db.db)
  return db
}

/**
 * A describe block's own database: created and opened before its tests, with what `build` makes
 * on it (a module's API…); after them that is closed, then the handle, then the database dropped,
 * each step even when one before it failed. Read the fields inside hooks and tests; a block's own
 * hooks registered after this call run after the opening and before the closing.
 */
export function useTestDatabase<T extends { close(): Promise<unknown> } | undefined = undefined>(
  dialect: TestDialect,
  build?: (database: Db) => T | Promise<T>,
  { open, timeout }: { open?: OpenOptions; timeout?: number } = {},
) {
  const state = {} as { testDb: TestDatabase; database: Db; t: T }
  beforeAll(async () => {
    const migrated = open?.migrate !== false && open?.seed !== false
    state.testDb = await createTestDatabase(dialect, { migrated })
    state.database = await state.testDb.open(open)
    state.t = (await build?.(state.database)) as T
  }, timeout)
  afterAll(async () => {
    try {
      await state.t?.close()
    } finally {
      try {
        await state.database?.close()
      } finally {
        // Dropping waits on PostgreSQL (the pool's sockets closing, the drop itself): the file's next
        // block goes on meanwhile, and its last hook waits for every drop (no-leftovers.ts).
        if (state.testDb) droppedLater(state.testDb.drop())
      }
    }
  })
  return state
}

/** How many rows a table holds: a refusal's test checks that it wrote none. */
export async function rowCount(database: Db, table: keyof Database) {
  const row = await database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
