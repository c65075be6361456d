import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { DatabaseTarget } from '../../server/config.ts'
import { openDatabase, migrateToLatest, type Db } from '../../server/db/database.ts'
import { seedReference } from '../../server/db/seed.ts'

// Integration tests run against both databases the product supports: a real SQLite file and a
// real PostgreSQL database created for the test and dropped after it. PostgreSQL is required:
// when it cannot be reached the tests fail instead of silently covering one database only.
export const postgresAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const dialects = ['sqlite', 'postgres'] as const
export type TestDialect = (typeof dialects)[number]

export interface TestDatabase {
  target: DatabaseTarget
  /** Opens (and migrates and seeds, unless told not to) a handle on this database. */
  open(options?: { migrate?: boolean; seed?: boolean }): Promise<Db>
  drop(): Promise<void>
}

export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-test-'))
    const target: DatabaseTarget = { kind: 'sqlite', file: path.join(dir, 'test.sqlite') }
    return { target, open: (o) => openPrepared(target, o), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) }
  }
  const name = `wk_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgresAdminUrl })
  try {
    await admin.connect()
  } catch (error) {
    throw new Error(`PostgreSQL is required for the integration tests and is not reachable at ${postgresAdminUrl}: ${(error as Error).message}`)
  }
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(postgresAdminUrl)
  url.pathname = `/${name}`
  const target: DatabaseTarget = { kind: 'postgres', url: url.href }
  return {
    target,
    open: (o) => openPrepared(target, o),
    async drop() {
      const c = new pg.Client({ connectionString: postgresAdminUrl })
      await c.connect()
      // pg-pool's end() resolves before its sockets have closed: wait (briefly) until they have, so
      // the forced drop does not kill a connection a closed pool still holds (an unhandled error).
      for (let i = 0; i < 40; i++) {
        const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name])
        if (rows[0].n === 0) break
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
