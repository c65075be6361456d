import type { DatabaseSync, StatementSync, SQLInputValue } from 'node:sqlite'
import { SqliteAdapter, SqliteDialect, SqliteDriver, CompiledQuery } from 'kysely'
import type { DatabaseConnection, SqliteDatabase, SqliteStatement } from 'kysely'

// Kysely's SQLite dialect expects the better-sqlite3 shape; node:sqlite is close but takes spread
// parameters, cannot bind booleans or Dates, and has no `reader` flag. This adapter bridges the
// difference and caches prepared statements, since preparing is the costly part of a query.
function bind(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value instanceof Date) return value.toISOString()
  if (value === undefined) return null
  return value as SQLInputValue
}

export function wrapNodeSqlite(db: DatabaseSync): SqliteDatabase {
  const cache = new Map<string, { stmt: StatementSync; reader: boolean }>()
  const prepare = (sql: string) => {
    let entry = cache.get(sql)
    if (!entry) {
      const stmt = db.prepare(sql)
      entry = { stmt, reader: stmt.columns().length > 0 }
      if (cache.size > 1000) cache.delete(cache.keys().next().value!)
      cache.set(sql, entry)
    }
    return entry
  }
  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
      const { stmt, reader } = prepare(sql)
      return {
        reader,
        all: (params) => stmt.all(...params.map(bind)),
        run: (params) => {
          const r = stmt.run(...params.map(bind))
          return { changes: r.changes, lastInsertRowid: r.lastInsertRowid }
        },
        iterate: (params) => stmt.iterate(...params.map(bind)) as IterableIterator<unknown>,
      }
    },
  }
}

// SQLite does support transactional DDL, so migrations run inside a transaction like on PostgreSQL.
class Adapter extends SqliteAdapter {
  override get supportsTransactionalDdl() {
    return true
  }
}

// BEGIN IMMEDIATE takes the write lock up front, so a second process never fails a transaction
// half-way with SQLITE_BUSY on lock upgrade.
class Driver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

export class NodeSqliteDialect extends SqliteDialect {
  readonly #database: SqliteDatabase
  constructor(database: SqliteDatabase) {
    super({ database })
    this.#database = database
  }
  override createAdapter() {
    return new Adapter()
  }
  override createDriver() {
    return new Driver({ database: this.#database })
  }
}
