import fs from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Kysely, PostgresDialect, sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import type { DatabaseTarget } from '../config.ts'
import type { Database } from './schema.ts'
import { NodeSqliteDialect, wrapNodeSqlite } from './sqlite-dialect.ts'
import { createCommitWatch, type CommitListener } from './commit-watch.ts'
import { migrations } from './migrations/index.ts'
import type { Dialect, Migration } from './migrations/helpers.ts'

export type DB = Kysely<Database>
export interface Db {
  db: DB
  dialect: Dialect
  close(): Promise<void>
  /** Hears, after each commit, which tables it inserted rows into (db/commit-watch.ts); answers a function that stops it. */
  onCommit(listener: CommitListener): () => void
  /** PostgreSQL only: the pool's connections now (for /metrics). */
  pool?: () => { total: number; idle: number; waiting: number }
}

// Failures to reach the database become one readable line for the operator.
export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError'
}

export async function openDatabase(target: DatabaseTarget): Promise<Db> {
  if (target.kind === 'postgres') return openPostgres(target.url)
  return openSqlite(target.file)
}

async function openPostgres(url: string): Promise<Db> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new DatabaseStartError('DATABASE_URL is not a valid URL')
  }
  // pg is loaded only for PostgreSQL, so a server on SQLite never holds it (decision 136).
  const { default: pg } = await import('pg')
  // PostgreSQL hands back timestamps as Date and bigints as strings; SQLite stores ISO text and
  // numbers. Normalising pg here means services see the same shapes on both databases.
  pg.types.setTypeParser(1184, (v) => new Date(v).toISOString())
  pg.types.setTypeParser(1114, (v) => new Date(`${v}Z`).toISOString())
  pg.types.setTypeParser(20, (v) => Number(v))
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 })
  // When PostgreSQL ends a connection (its restart, a failover, an administrator's terminate), the
  // client emits 'error': idle, the pool hears it; checked out between two queries, nobody does,
  // and an unheard 'error' stops the whole process. Every client is heard, always: its query in
  // flight fails (that request answers 5xx, nothing acknowledged), the pool drops it on release,
  // and the next query opens a new connection (decision 221).
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  const commits = createCommitWatch()
  const db = new Kysely<Database>({ dialect: commits.watch(new PostgresDialect({ pool })) })
  try {
    await sql`select 1`.execute(db)
  } catch (error) {
    await db.destroy().catch(() => {})
    throw new DatabaseStartError(
      `cannot reach PostgreSQL at ${parsed.host}${parsed.pathname}: ${(error as Error).message}`,
    )
  }
  return {
    db,
    dialect: 'postgres',
    close: () => db.destroy(),
    onCommit: commits.onCommit,
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  }
}

async function openSqlite(file: string): Promise<Db> {
  if (file !== ':memory:') {
    const dir = path.dirname(file)
    try {
      fs.mkdirSync(dir, { recursive: true })
      fs.accessSync(dir, fs.constants.W_OK)
    } catch {
      throw new DatabaseStartError(`the data folder ${dir} cannot be created or written to`)
    }
  }
  let handle: DatabaseSync
  try {
    // One long-lived handle for the whole process; it is closed only at shutdown.
    handle = new DatabaseSync(file, { timeout: 5000 })
    handle.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;')
  } catch (error) {
    throw new DatabaseStartError(`cannot open the SQLite file ${file}: ${(error as Error).message}`)
  }
  const commits = createCommitWatch()
  const db = new Kysely<Database>({
    dialect: commits.watch(new NodeSqliteDialect(wrapNodeSqlite(handle))),
  })
  // Kysely closes its driver only if a query ever started it: a handle opened and never used is
  // closed here, or its file stays open after the database is closed.
  const close = async () => {
    await db.destroy()
    if (handle.isOpen) handle.close()
  }
  return { db, dialect: 'sqlite', close, onCommit: commits.onCommit }
}

function migrator({ db, dialect }: Db, list: Record<string, Migration> = migrations) {
  return new Migrator({
    db,
    provider: {
      async getMigrations() {
        return Object.fromEntries(
          Object.entries(list).map(([name, m]) => [name, { up: (k: Kysely<any>) => m.up(k, dialect) }]),
        )
      },
    },
  })
}

// Each migration runs in its own transaction on both databases, so a failure leaves the schema as it was.
export async function migrateToLatest(database: Db, list?: Record<string, Migration>) {
  const { error, results } = await migrator(database, list).migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new DatabaseStartError(`migration ${failed ?? ''} failed: ${(error as Error).message ?? error}`)
  }
  return results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? []
}

export async function pendingMigrations(database: Db) {
  const all = await migrator(database).getMigrations()
  return all.filter((m) => !m.executedAt).map((m) => m.name)
}
