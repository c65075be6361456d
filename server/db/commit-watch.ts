import { InsertQueryNode } from 'kysely'
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  TransactionSettings,
} from 'kysely'

// Tells listeners, once a unit of work has committed, which tables it inserted rows into: a
// transaction when it commits, a statement outside a transaction when it has run. It sits in the
// driver, under every query of the Kysely instance, so no service can write a row (an outbox row,
// say) without its listeners hearing of it after commit, and never of a rollback. The outbox
// worker listens for `outbox` (jobs/outbox.ts): a committed event is delivered at once, not at the
// next poll (docs/decisions/095-outbox-wakes-on-commit.md).
//
// Only query-builder inserts are seen (raw SQL is not parsed); every enqueue is one.
export type CommitListener = (inserted: ReadonlySet<string>) => void

export interface CommitWatch {
  /** Wraps a dialect so that its connections report their committed inserts. */
  watch(dialect: Dialect): Dialect
  /** Calls `listener` after each commit that inserted rows; answers a function that stops it. */
  onCommit(listener: CommitListener): () => void
}

export function createCommitWatch(): CommitWatch {
  const listeners = new Set<CommitListener>()
  // A listener's failure must not turn a committed write into a failed query.
  const tell = (inserted: ReadonlySet<string>) => {
    for (const listener of listeners) {
      try {
        listener(inserted)
      } catch (error) {
        process.emitWarning(error as Error)
      }
    }
  }
  return {
    watch: (dialect) => watchDialect(dialect, tell),
    onCommit(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

function insertedTable(query: CompiledQuery) {
  const node = query.query
  return InsertQueryNode.is(node) && node.into ? node.into.table.identifier.name : null
}

// One of these per acquisition of a connection: what was inserted since, and whether a
// transaction is open. Kysely hands it back to the driver for begin, commit and release.
class WatchedConnection implements DatabaseConnection {
  readonly inserted = new Set<string>()
  /** Inserts of the open transaction, kept apart until it commits. */
  pending: Set<string> | null = null
  cancelQuery?: DatabaseConnection['cancelQuery']
  killSession?: DatabaseConnection['killSession']
  collectSessionInfo?: DatabaseConnection['collectSessionInfo']
  readonly inner: DatabaseConnection
  constructor(inner: DatabaseConnection) {
    this.inner = inner
    // What a driver offers for aborting a query stays offered.
    if (inner.cancelQuery) this.cancelQuery = (control) => inner.cancelQuery!(control)
    if (inner.killSession) this.killSession = (control) => inner.killSession!(control)
    if (inner.collectSessionInfo) this.collectSessionInfo = () => inner.collectSessionInfo!()
  }

  async executeQuery<R>(query: CompiledQuery, options?: Parameters<DatabaseConnection['executeQuery']>[1]) {
    const result = await this.inner.executeQuery<R>(query, options)
    const table = insertedTable(query)
    if (table) (this.pending ?? this.inserted).add(table)
    return result
  }

  streamQuery<R>(
    query: CompiledQuery,
    chunkSize: number,
    options?: Parameters<DatabaseConnection['streamQuery']>[2],
  ) {
    return this.inner.streamQuery<R>(query, chunkSize, options)
  }
}

function watchDialect(dialect: Dialect, tell: (inserted: ReadonlySet<string>) => void): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => watchDriver(dialect.createDriver(), tell),
  }
}

function watchDriver(driver: Driver, tell: (inserted: ReadonlySet<string>) => void): Driver {
  const inner = (connection: DatabaseConnection) => (connection as WatchedConnection).inner
  const watched: Driver = {
    init: (options) => driver.init(options),
    destroy: (options) => driver.destroy(options),
    acquireConnection: async (options) => new WatchedConnection(await driver.acquireConnection(options)),
    async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
      await driver.beginTransaction(inner(connection), settings)
      ;(connection as WatchedConnection).pending = new Set()
    },
    async commitTransaction(connection) {
      const c = connection as WatchedConnection
      await driver.commitTransaction(c.inner)
      for (const table of c.pending ?? []) c.inserted.add(table)
      c.pending = null
    },
    async rollbackTransaction(connection) {
      const c = connection as WatchedConnection
      c.pending = null
      await driver.rollbackTransaction(c.inner)
    },
    // Listeners hear after the connection is back, so what they start may use it at once.
    async releaseConnection(connection, options) {
      const c = connection as WatchedConnection
      await driver.releaseConnection(c.inner, options)
      if (c.inserted.size) tell(c.inserted)
    },
  }
  // Savepoints live inside a transaction: a rollback to one may leave a table named that gained
  // no row, which only costs a listener a look.
  if (driver.savepoint)
    watched.savepoint = (
      connection: DatabaseConnection,
      name: string,
      compile: QueryCompiler['compileQuery'],
    ) => driver.savepoint!(inner(connection), name, compile)
  if (driver.rollbackToSavepoint)
    watched.rollbackToSavepoint = (
      connection: DatabaseConnection,
      name: string,
      compile: QueryCompiler['compileQuery'],
    ) => driver.rollbackToSavepoint!(inner(connection), name, compile)
  if (driver.releaseSavepoint)
    watched.releaseSavepoint = (
      connection: DatabaseConnection,
      name: string,
      compile: QueryCompiler['compileQuery'],
    ) => driver.releaseSavepoint!(inner(connection), name, compile)
  return watched
}
