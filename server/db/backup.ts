import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { sql, type Kysely } from 'kysely'
import type { Db } from './database.ts'
import { migrateToLatest } from './database.ts'

// `npm run db:backup` / `db:restore` (issue 19 item 7, decision 263): a logical backup written from
// Node, the same for SQLite and PostgreSQL (no pg_dump needed): one gzipped JSON-lines file per
// table, read inside one read snapshot so it is consistent while the server runs, the stored files
// (DATA_DIR/files) copied after it, and a manifest with the row counts and the migrations.
//
//   <dir>/manifest.json   { format, dialect, createdAt, migrations, tables: { name: rows } }
//   <dir>/tables/<name>.jsonl.gz
//   <dir>/files/…
//
// Restore migrates the target to the same release (it refuses another one), empties every table
// and loads the rows in foreign-key order in one transaction, then puts the files back.

export const FORMAT = 'workneer-backup-1'
const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock'])
const FTS_SHADOWS = ['_data', '_idx', '_content', '_docsize', '_config']
const BATCH = 200

type Any = Kysely<any>
interface TableInfo {
  name: string
  virtual: boolean
  deps: string[]
}

/** The tables to copy, parents before children; SQLite's FTS5 tables by their rows, never their shadow tables. */
export async function tablesOf(db: Any, dialect: Db['dialect']): Promise<TableInfo[]> {
  let tables: TableInfo[]
  if (dialect === 'sqlite') {
    const rows = (
      await sql<{
        name: string
        sql: string | null
      }>`select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
    ).rows
    const virtual = new Set(rows.filter((r) => /^create virtual table/i.test(r.sql ?? '')).map((r) => r.name))
    const shadow = (name: string) => [...virtual].some((v) => FTS_SHADOWS.some((s) => name === v + s))
    tables = []
    for (const r of rows.filter((r) => !shadow(r.name) && !MIGRATION_TABLES.has(r.name))) {
      const fks = virtual.has(r.name)
        ? []
        : (await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${r.name})`.execute(db))
            .rows
      tables.push({ name: r.name, virtual: virtual.has(r.name), deps: fks.map((f) => f.table) })
    }
  } else {
    const names = (
      await sql<{
        name: string
      }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
        db,
      )
    ).rows
    const fks = (
      await sql<{ child: string; parent: string }>`
      select tc.table_name as child, ccu.table_name as parent from information_schema.table_constraints tc
      join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`.execute(db)
    ).rows
    tables = names
      .filter((n) => !MIGRATION_TABLES.has(n.name))
      .map((n) => ({
        name: n.name,
        virtual: false,
        deps: fks.filter((f) => f.child === n.name).map((f) => f.parent),
      }))
  }
  // Parents first; a table that names itself (a reversal of an earlier ledger transaction) is fine in id order.
  const byName = new Map(tables.map((t) => [t.name, t]))
  const ordered: TableInfo[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (t: TableInfo) => {
    if (state.get(t.name)) return
    state.set(t.name, 'visiting')
    for (const dep of t.deps) if (dep !== t.name && byName.has(dep)) visit(byName.get(dep)!)
    state.set(t.name, 'done')
    ordered.push(t)
  }
  for (const t of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(t)
  return ordered
}

/** Every row of a table in a stable order (FTS5 rows with their rowid). */
async function readTable(db: Any, dialect: Db['dialect'], table: TableInfo) {
  if (table.virtual)
    return (
      await sql<
        Record<string, unknown>
      >`select rowid as "rowid", * from ${sql.table(table.name)} order by rowid`.execute(db)
    ).rows
  const order = dialect === 'sqlite' ? sql`order by rowid` : sql`order by 1`
  return (await sql<Record<string, unknown>>`select * from ${sql.table(table.name)} ${order}`.execute(db))
    .rows
}

async function migrationsOf(db: Any) {
  return (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map(
    (r) => r.name,
  )
}

/** In one read snapshot: SQLite's transaction holds the file still; PostgreSQL's repeatable read sees one moment. */
async function inSnapshot<T>(database: Db, work: (db: Any) => Promise<T>) {
  if (database.dialect === 'postgres')
    return database.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => work(trx))
  return database.db.transaction().execute((trx) => work(trx))
}

function copyTree(from: string, to: string) {
  if (!fs.existsSync(from)) return 0
  let count = 0
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name)
    const target = path.join(to, entry.name)
    if (entry.isDirectory()) count += copyTree(source, target)
    else if (entry.isFile()) {
      fs.mkdirSync(to, { recursive: true })
      fs.copyFileSync(source, target)
      count++
    }
  }
  return count
}

export async function backup(database: Db, dataDir: string, outDir: string) {
  if (fs.existsSync(outDir) && fs.readdirSync(outDir).length) throw new Error(`${outDir} is not empty`)
  fs.mkdirSync(path.join(outDir, 'tables'), { recursive: true })
  const { counts, migrations } = await inSnapshot(database, async (db) => {
    const counts: Record<string, number> = {}
    for (const table of await tablesOf(db, database.dialect)) {
      const rows = await readTable(db, database.dialect, table)
      const text = rows.map((r) => JSON.stringify(r)).join('\n')
      fs.writeFileSync(path.join(outDir, 'tables', `${table.name}.jsonl.gz`), zlib.gzipSync(text))
      counts[table.name] = rows.length
    }
    return { counts, migrations: await migrationsOf(db) }
  })
  // The files after the rows: a file is written before the row that names it (decision 012), so
  // every row in the snapshot finds its bytes.
  const files = copyTree(path.join(dataDir, 'files'), path.join(outDir, 'files'))
  const manifest = {
    format: FORMAT,
    dialect: database.dialect,
    createdAt: new Date().toISOString(),
    migrations,
    tables: counts,
    files,
  }
  fs.writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2))
  return manifest
}

function readRows(dir: string, table: string): Record<string, unknown>[] {
  const file = path.join(dir, 'tables', `${table}.jsonl.gz`)
  if (!fs.existsSync(file)) return []
  const text = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8')
  return text ? text.split('\n').map((line) => JSON.parse(line)) : []
}

export async function restore(database: Db, dataDir: string, fromDir: string) {
  const manifest = JSON.parse(fs.readFileSync(path.join(fromDir, 'manifest.json'), 'utf8')) as {
    format: string
    migrations: string[]
    tables: Record<string, number>
  }
  if (manifest.format !== FORMAT) throw new Error(`${fromDir} is not a Workneer backup (${manifest.format})`)
  await migrateToLatest(database)
  const here = await migrationsOf(database.db)
  if (here.join() !== manifest.migrations.join())
    throw new Error(
      'the backup was made by another release of Workneer (its migrations differ): restore it with that release',
    )
  const dialect = database.dialect
  await database.db.transaction().execute(async (typed) => {
    // Tables by name, whatever they are: the rows are the backup's, not code's.
    const trx = typed as unknown as Any
    const tables = await tablesOf(trx, dialect)
    for (const table of [...tables].reverse()) await sql`delete from ${sql.table(table.name)}`.execute(trx)
    for (const table of tables) {
      const rows = readRows(fromDir, table.name)
      for (let i = 0; i < rows.length; i += BATCH)
        await trx
          .insertInto(table.name)
          .values(rows.slice(i, i + BATCH))
          .execute()
      if (rows.length !== (manifest.tables[table.name] ?? 0))
        throw new Error(
          `${table.name}: ${rows.length} rows read, the manifest says ${manifest.tables[table.name]}`,
        )
      // PostgreSQL's identity columns continue after the restored ids.
      if (dialect === 'postgres' && rows.length && 'id' in rows[0]) {
        const sequence = (
          await sql<{ s: string | null }>`select pg_get_serial_sequence(${table.name}, 'id') as s`.execute(
            trx,
          )
        ).rows[0]?.s
        if (sequence)
          await sql`select setval(${sequence}::regclass, (select max(id) from ${sql.table(table.name)}))`.execute(
            trx,
          )
      }
    }
  })
  // The stored files become the backup's: what is not in it goes.
  const filesDir = path.join(dataDir, 'files')
  fs.rmSync(filesDir, { recursive: true, force: true })
  const files = copyTree(path.join(fromDir, 'files'), filesDir)
  return { tables: manifest.tables, files }
}
