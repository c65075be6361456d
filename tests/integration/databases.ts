import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import type { DatabaseTarget } from '#server/config.ts'
import { openDatabase, migrateToLatest, type Db } from '#server/db/database.ts'
import type { Database } from '#server/db/schema.ts'
import { seedReference } from '#server/db/seed.ts'
import { madeTestDatabase, droppedInUse } from './leftovers.ts'

// Integration tests run against both databases the product supports: a real SQLite file and a
// real PostgreSQL database created for the test and dropped after it. PostgreSQL is required:
// when it cannot be reached the tests fail instead of silently covering one database only.
export const postgresAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const dialects = ['sqlite', 'postgres'] as const
export type TestDialect = (typeof dialects)[number]

export type OpenOptions = { migrate?: boolean; seed?: boolean }

export interface TestDatabase {
  target: DatabaseTarget
  /** Opens (and migrates and seeds, unless told not to) a handle on this database. */
  open(options?: OpenOptions): Promise<Db>
  drop(): Promise<void>
}

export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-test-'))
    const target: DatabaseTarget = { kind: 'sqlite', file: path.join(dir, 'test.sqlite') }
    madeTestDatabase({ kind: 'sqlite', dir })
    return {
      target,
      open: (o) => openPrepared(target, o),
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
  await admin.query(`create database ${name}`)
  await admin.end()
  madeTestDatabase({ kind: 'postgres', name, adminUrl: postgresAdminUrl })
  const url = new URL(postgresAdminUrl)
  url.pathname = `/${name}`
  const target: DatabaseTarget = { kind: 'postgres', url: url.href }
  return {
    target,
    open: (o) => openPrepared(target, o),
    async drop() {
      const c = new pg.Client({ connectionString: postgresAdminUrl })
      await c.connect()
      // pg-pool's end() resolves before its sockets have closed: wait until they have (up to 10 s,
      // a loaded machine closes slowly), so the forced drop does not kill a connection a closed
      // pool still holds (an unhandled error).
      for (let i = 0; ; i++) {
        const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [
          name,
        ])
        if (rows[0].n === 0) break
        if (i === 200) {
          droppedInUse(name, rows[0].n)
          break
        }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
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
    state.testDb = await createTestDatabase(dialect)
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
        await state.testDb?.drop()
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
