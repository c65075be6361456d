import type { CreateTableBuilder, Kysely } from 'kysely'
import { sql } from 'kysely'

export type Dialect = 'sqlite' | 'postgres'

// The languages of the first release, frozen here rather than read from server/db/schema.ts: a
// language added later gets its columns from a migration of its own, never by changing 0001.
const locales = ['en', 'es', 'de', 'it', 'ru'] as const

// The few column kinds where the two databases differ are spelled once, here.
export function withId<T extends string>(t: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
}

export function timestampType(dialect: Dialect) {
  return dialect === 'postgres' ? sql`timestamptz` : sql`text`
}

export function withLocalized<T extends string, C extends string>(
  t: CreateTableBuilder<T, C>,
  prefix: string,
) {
  let table = t as CreateTableBuilder<T, string>
  for (const l of locales) table = table.addColumn(`${prefix}_${l}`, 'text', (c) => c.notNull())
  return table
}

export interface Migration {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>
}
