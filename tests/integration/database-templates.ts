import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { migrateToLatest, openDatabase } from '#server/db/database.ts'
import { seedReference } from '#server/db/seed.ts'
import type { DatabaseTarget } from '#server/config.ts'
import { postgresAdminUrl } from './postgres-admin.ts'

// Vitest's global setup (decision 351): one database of each kind migrated and seeded once per run,
// which the test helpers copy (a SQLite file copy, PostgreSQL's `create database … template`)
// instead of running every migration and the seed again for each describe block. Made from this
// checkout's migrations at the start of the run, dropped at its end.
declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: { sqliteFile: string; postgresName: string }
  }
}

async function prepared(target: DatabaseTarget) {
  const database = await openDatabase(target)
  try {
    await migrateToLatest(database)
    await seedReference(database.db)
  } finally {
    await database.close()
  }
}

/** Waits until nobody is connected to `name` (pg-pool's end() resolves before its sockets close). */
export async function untilUnused(admin: pg.Client, name: string, tries = 200) {
  for (let i = 0; i < tries; i++) {
    const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [
      name,
    ])
    if (rows[0].n === 0) return 0
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [
    name,
  ])
  return rows[0].n as number
}

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-template-'))
  const sqliteFile = path.join(dir, 'template.sqlite')
  const postgresName = `wk_template_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgresAdminUrl })
  await admin.connect()
  try {
    await admin.query(`create database ${postgresName}`)
    const url = new URL(postgresAdminUrl)
    url.pathname = `/${postgresName}`
    await Promise.all([
      prepared({ kind: 'sqlite', file: sqliteFile }),
      prepared({ kind: 'postgres', url: url.href }),
    ])
    // A template with a connection open cannot be copied.
    const left = await untilUnused(admin, postgresName)
    if (left) throw new Error(`the template ${postgresName} still has ${left} connection(s)`)
  } finally {
    await admin.end()
  }
  project.provide('databaseTemplates', { sqliteFile, postgresName })
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true })
    const c = new pg.Client({ connectionString: postgresAdminUrl })
    await c.connect()
    await c.query(`drop database if exists ${postgresName} with (force)`)
    await c.end()
  }
}
