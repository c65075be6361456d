import { sql } from 'kysely'
import type { Db } from '#server/db/database.ts'

/**
 * Which tables a call changed, for the security tests' "a refused call changes nothing". A trigger
 * on every table writes the table's name to `watched_change` for each row really inserted, deleted
 * or updated to different values; `clear()` before the call, `tables()` after it. The cost is that
 * of the rows the call changed: the earlier digest of every table's rows before and after each call
 * grew with the tables, and made the full-length fuzzing (which writes as it goes) quadratic.
 * Sessions are left out: reading with a token notes when it was last used, a change the caller
 * did not make. Test databases only: the triggers are never part of a migration.
 */
export interface ChangeWatch {
  clear(): Promise<void>
  /** The tables with a row changed since the last `clear()`, by name. */
  tables(): Promise<string[]>
}

const LOG = 'watched_change'

export async function watchChanges(database: Db, skip: string[] = ['user_session']): Promise<ChangeWatch> {
  const db = database.db
  const all = (await db.introspection.getTables()).filter(
    (t) => !t.isView && !skip.includes(t.name) && !t.name.startsWith('kysely_') && t.name !== LOG,
  )
  // SQLite's full-text indexes (FTS5) take no trigger, nor do their shadow tables: their rows are
  // compared whole instead (a few hundred, one per project or freelancer).
  const virtual =
    database.dialect === 'sqlite'
      ? (
          await sql<{
            name: string
          }>`select name from sqlite_master where sql like 'CREATE VIRTUAL TABLE%'`.execute(db)
        ).rows.map((r) => r.name)
      : []
  const tables = all.filter((t) => !virtual.some((v) => t.name === v || t.name.startsWith(`${v}_`)))
  const indexRows = async () =>
    Promise.all(
      virtual.map(async (v) =>
        JSON.stringify((await sql`select rowid, * from ${sql.table(v)} order by rowid`.execute(db)).rows),
      ),
    )
  let indexesBefore: string[] = []
  await sql`create table ${sql.table(LOG)} (name text not null)`.execute(db)
  if (database.dialect === 'postgres') {
    // Rows compared as text: a row with a json column has no equality operator of its own.
    await sql`create function watched_change() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and old::text is not distinct from new::text then return null; end if;
        insert into watched_change (name) values (tg_table_name);
        return null;
      end $$`.execute(db)
    for (const t of tables)
      await sql`create trigger watched_change after insert or update or delete on ${sql.table(t.name)} for each row execute function watched_change()`.execute(
        db,
      )
  } else {
    for (const t of tables) {
      const name = sql.lit(t.name)
      const log = sql`begin insert into ${sql.table(LOG)} (name) values (${name}); end`
      const differs = sql.join(
        t.columns.map((c) => sql`old.${sql.ref(c.name)} is not new.${sql.ref(c.name)}`),
        sql` or `,
      )
      await sql`create trigger ${sql.id(`watched_${t.name}_insert`)} after insert on ${sql.table(t.name)} ${log}`.execute(
        db,
      )
      await sql`create trigger ${sql.id(`watched_${t.name}_delete`)} after delete on ${sql.table(t.name)} ${log}`.execute(
        db,
      )
      await sql`create trigger ${sql.id(`watched_${t.name}_update`)} after update on ${sql.table(t.name)} when ${differs} ${log}`.execute(
        db,
      )
    }
  }
  return {
    async clear() {
      await sql`delete from ${sql.table(LOG)}`.execute(db)
      indexesBefore = await indexRows()
    },
    async tables() {
      const logged = (
        await sql<{ name: string }>`select distinct name from ${sql.table(LOG)} order by name`.execute(db)
      ).rows.map((r) => r.name)
      const indexesNow = await indexRows()
      return [...logged, ...virtual.filter((_, i) => indexesNow[i] !== indexesBefore[i])]
    },
  }
}
