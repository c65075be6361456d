import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { sql } from 'kysely'
import type { DatabaseTarget } from '#server/config.ts'
import { openDatabase, migrateToLatest, type Db } from '#server/db/database.ts'
import { seedReference } from '#server/db/seed.ts'

// A private server's database starts as a copy of a template built once per run (decision 350):
// migrating, seeding and hashing the accounts' password took seconds at every one of the run's
// ~90 server starts, and gave the same bytes each time. Each spec still has a database of its own.
export const postgresAdmin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export interface Template {
  /** Names the template: lower-case letters and digits. */
  name: string
  /** What the template holds beyond the migrated schema and the reference seed. */
  fill?: (db: Db) => Promise<void>
}

/** Migrated and seeded, as a server leaves an empty database at its first start. */
export const emptyMarketplace: Template = { name: 'base' }

/** Names this run's templates; the global setup sets it, so every worker of a run shares them. */
export const TEMPLATE_RUN = 'E2E_TEMPLATE_RUN'
const run = () => (process.env[TEMPLATE_RUN] ??= randomBytes(4).toString('hex'))
export const templateDir = (id = run()) => path.join(os.tmpdir(), `workneer-e2e-templates-${id}`)
/** Every PostgreSQL database of a run, its templates' and its specs', is named with this prefix. */
const runPrefix = (id = run()) => `wk_${id}_`
/** A new name for a spec's PostgreSQL database. */
export const specDatabaseName = (name: string) => `${runPrefix()}${name}_${draftName()}`
const draftName = () => randomBytes(4).toString('hex')

/** Makes `target` (a file that does not exist yet, or a database not created yet) a copy of `template`. */
export async function copyTemplate(target: DatabaseTarget, template: Template) {
  if (!/^[a-z0-9]+$/.test(template.name))
    throw new Error(`template name ${template.name}: letters and digits`)
  if (target.kind === 'sqlite') {
    fs.copyFileSync(await built('sqlite', template), target.file)
    return
  }
  const name = new URL(target.url).pathname.slice(1)
  await adminQuery(`create database ${name} template ${await built('postgres', template)}`)
}

const builds = new Map<string, Promise<string>>()

/** The template's file (SQLite) or database name (PostgreSQL), built the first time this run asks. */
function built(kind: 'sqlite' | 'postgres', template: Template) {
  const key = `${kind}:${template.name}`
  let build = builds.get(key)
  if (!build) {
    build = kind === 'sqlite' ? sqliteTemplate(template) : postgresTemplate(template)
    builds.set(key, build)
    build.catch(() => builds.delete(key))
  }
  return build
}

async function fill(target: DatabaseTarget, template: Template) {
  const db = await openDatabase(target)
  try {
    await migrateToLatest(db)
    await seedReference(db.db)
    await template.fill?.(db)
    // The copy is the file alone: what the write-ahead log holds goes into it first.
    if (target.kind === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(db.db)
  } finally {
    await db.close()
  }
}

// Built under a draft name and renamed when whole, so a worker that finds the name finds it complete
// (a run's workers may build the same template side by side: both make the same content).
async function sqliteTemplate(template: Template) {
  const file = path.join(templateDir(), `${template.name}.sqlite`)
  if (fs.existsSync(file)) return file
  fs.mkdirSync(templateDir(), { recursive: true })
  const draft = `${file}.${draftName()}`
  await fill({ kind: 'sqlite', file: draft }, template)
  fs.renameSync(draft, file)
  for (const suffix of ['-wal', '-shm']) fs.rmSync(draft + suffix, { force: true })
  return file
}

async function postgresTemplate(template: Template) {
  const name = `${runPrefix()}tpl_${template.name}`
  const exists = async () =>
    ((await adminQuery('select 1 from pg_database where datname = $1', [name])).rowCount ?? 0) > 0
  if (await exists()) return name
  const draft = `${name}_${draftName()}`
  await adminQuery(`create database ${draft}`)
  const url = new URL(postgresAdmin)
  url.pathname = `/${draft}`
  try {
    await fill({ kind: 'postgres', url: url.href }, template)
    await adminQuery(`alter database ${draft} rename to ${name}`)
  } catch (error) {
    await adminQuery(`drop database if exists ${draft} with (force)`)
    if (!(await exists())) throw error
  }
  return name
}

/** Drops run `id`'s templates and what its specs' databases are left (the global setup's teardown). */
export async function dropRunDatabases(id: string) {
  fs.rmSync(templateDir(id), { recursive: true, force: true })
  const names = await adminQuery('select datname from pg_database where starts_with(datname, $1)', [
    runPrefix(id),
  ])
  for (const { datname } of names.rows as { datname: string }[])
    await adminQuery(`drop database if exists ${datname} with (force)`)
}

export async function adminQuery(text: string, values?: unknown[]) {
  const admin = new pg.Client({ connectionString: postgresAdmin })
  await admin.connect()
  try {
    return await admin.query(text, values)
  } finally {
    await admin.end()
  }
}
