import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'
import type { DatabaseConnection, Dialect as KyselyDialect, Driver } from 'kysely'
import type { Database } from './schema.ts'
import type { Db } from './database.ts'
import { loopTurn } from '#server/jobs/turn.ts'

// Work that must land whole or not at all although it runs through services that each open their
// own transactions (the demo marketplace: accounts, profiles, projects, proposals, a contract).
// `inOneTransaction` holds one connection in one transaction and hands the work a Db on it whose
// transactions are savepoints inside that one: it commits when the work resolves, and rolls back
// when it throws, when the handle is closed under it, or when the process dies (the database drops
// an unfinished transaction). Nothing of it is visible to anyone else until it commits.

// On SQLite the work is one unbroken chain of synchronous calls: nothing else runs until it ends, not
// even a Ctrl-C's handler or the log's writes. Each service transaction first lets the event loop
// turn, so a stop is heard within one service call and rolls the whole work back.

/** Services' transactions become savepoints of the outer one; every query uses the one connection. */
class SavepointDriver implements Driver {
  #depth = 0
  #over = false
  readonly #connection: DatabaseConnection
  constructor(connection: DatabaseConnection) {
    this.#connection = connection
  }
  async init() {}
  async acquireConnection() {
    // A query after the end (a timer the work left behind) must not run outside the transaction.
    if (this.#over) throw new Error('the transaction this work ran in has ended')
    return this.#connection
  }
  async beginTransaction(c: DatabaseConnection) {
    await loopTurn()
    await c.executeQuery(CompiledQuery.raw(`savepoint nested_${++this.#depth}`))
  }
  async commitTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw(`release savepoint nested_${this.#depth--}`))
  }
  async rollbackTransaction(c: DatabaseConnection) {
    const name = `nested_${this.#depth--}`
    await c.executeQuery(CompiledQuery.raw(`rollback to savepoint ${name}`))
    await c.executeQuery(CompiledQuery.raw(`release savepoint ${name}`))
  }
  async releaseConnection() {}
  async destroy() {
    this.#over = true
  }
}

// One connection: Kysely then queues every query and transaction of the work behind the one before
// (it does so for adapters that say they cannot use several connections).
class OneConnectionPostgresAdapter extends PostgresAdapter {
  override get supportsMultipleConnections() {
    return false
  }
}
class OneConnectionSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl() {
    return true
  }
}

function dialectOn(connection: DatabaseConnection, dialect: Db['dialect']): KyselyDialect {
  const postgres = dialect === 'postgres'
  return {
    createAdapter: () => (postgres ? new OneConnectionPostgresAdapter() : new OneConnectionSqliteAdapter()),
    createDriver: () => new SavepointDriver(connection),
    createIntrospector: (db) => (postgres ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
    createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
  }
}

export async function inOneTransaction<T>(database: Db, work: (db: Db) => Promise<T>): Promise<T> {
  return database.db.getExecutor().provideConnection(async (connection) => {
    // SQLite: take the write lock up front, as every transaction here does (sqlite-dialect.ts).
    await connection.executeQuery(
      CompiledQuery.raw(database.dialect === 'sqlite' ? 'begin immediate' : 'begin'),
    )
    const db = new Kysely<Database>({ dialect: dialectOn(connection, database.dialect) })
    try {
      // A service's commit in here is a savepoint, not a commit: nothing is announced to the outbox
      // (db/commit-watch.ts) until the one real commit, after which the worker's start-up drain delivers it.
      const result = await work({
        db,
        dialect: database.dialect,
        close: async () => {},
        onCommit: () => () => {},
      })
      // A stop heard at the very end still wins over the commit.
      await loopTurn()
      await db.destroy()
      await connection.executeQuery(CompiledQuery.raw('commit'))
      return result
    } catch (error) {
      await db.destroy()
      // The handle may be gone already (closed by a stop during the start): nothing is left to undo.
      await connection.executeQuery(CompiledQuery.raw('rollback')).catch(() => {})
      throw error
    }
  })
}
