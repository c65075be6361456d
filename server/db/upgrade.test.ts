import fs from 'node:fs'
import path from 'node:path'
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dialects, useTestDatabase } from '../../tests/integration/databases.ts'
import { moduleTestApi } from '../../tests/integration/module-api.ts'
import { steps, words, type Ids } from '../../tests/fixtures/early-marketplace.ts'
import { createProjectSearchIndex } from '../modules/projects/search-index.ts'
import { createSearchIndex } from '../modules/profiles/search-index.ts'
import { indexFreelancer, relistFreelancer } from '../modules/profiles/listing.ts'
import { migrateToLatest } from './database.ts'
import { migrations } from './migrations/index.ts'
import type { Dialect } from './migrations/helpers.ts'

// A database of every earlier release must upgrade to what today's code expects (decision 100).
// The early marketplace (tests/fixtures/early-marketplace.ts) is written step by step along the
// migrations, with the tables of each step, then migrated to the latest and compared with a
// database migrated straight there (tables, columns, indexes, constraints), with the search data
// today's modules would write from the same rows, and found through today's search API. A
// database migrated straight to the last frozen migration also has exactly the schema recorded in
// tests/fixtures/schema-0018.json, so an edited old migration shows even when every path runs it
// (UPDATE_SCHEMA_SNAPSHOT=1 writes the file again; it should never need to).
const FROZEN = '0018-project-search-ranges'
const snapshotFile = path.join(import.meta.dirname, '../../tests/fixtures/schema-0018.json')
const names = Object.keys(migrations)
const upTo = (name: string) =>
  Object.fromEntries(names.slice(0, names.indexOf(name) + 1).map((n) => [n, migrations[n]]))

const rows = async (db: Kysely<any>, query: RawBuilder<unknown>) => (await query.execute(db)).rows as any[]

/** Tables, columns, indexes and constraints, as each engine describes them (no row data). */
async function schemaOf(db: Kysely<any>, dialect: Dialect) {
  if (dialect === 'sqlite') {
    // SQLite keeps each object's CREATE statement, rewritten by every ALTER: that text is the schema.
    // FTS5's shadow tables are left out: they follow the virtual table, and their form is SQLite's.
    const shadows = sql`select v.name || s.suffix from sqlite_master v, (select '_data' as suffix union all select '_idx' union all select '_content' union all select '_docsize' union all select '_config') s where v.sql like 'CREATE VIRTUAL TABLE%'`
    return {
      objects: await rows(
        db,
        sql`select type, name, tbl_name, sql from sqlite_master where tbl_name not in (${shadows}) order by type, name`,
      ),
    }
  }
  const pub = sql`'public'::regnamespace`
  return {
    // Every column with its type, null, default, identity, collation and storage (0012 and 0014 keep lexemes out of line).
    columns: await rows(
      db,
      sql`select c.relname as tbl, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull, pg_get_expr(d.adbin, d.adrelid) as dflt, a.attidentity, nullif(co.collname, 'default') as coll, a.attstorage
        from pg_attribute a join pg_class c on c.oid = a.attrelid left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum left join pg_collation co on co.oid = a.attcollation
        where c.relnamespace = ${pub} and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped order by 1, 2`,
    ),
    indexes: await rows(
      db,
      sql`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by tablename, indexname`,
    ),
    // Not-null is the columns' (PostgreSQL 18 lists it as a constraint too).
    constraints: await rows(
      db,
      sql`select conrelid::regclass::text as tbl, conname, pg_get_constraintdef(oid) as def from pg_constraint where connamespace = ${pub} and contype <> 'n' order by 1, 2`,
    ),
    options: await rows(
      db,
      sql`select relname, reloptions from pg_class where relnamespace = ${pub} and reloptions is not null order by 1`,
    ),
  }
}

/** Every row the search indexes hold (derived from the marketplace's rows), and who is listed. */
async function searchDataOf(db: Kysely<any>, dialect: Dialect) {
  const listed = await rows(db, sql`select user_id, listed from freelancer_profile order by user_id`)
  if (dialect === 'sqlite') {
    return {
      listed,
      projects: await rows(
        db,
        sql`select rowid, title, description, skills, facets from project_search order by rowid`,
      ),
      freelancers: await rows(
        db,
        sql`select rowid, title, overview, skills, facets, name from freelancer_search order by rowid`,
      ),
    }
  }
  return {
    listed,
    projects: await rows(db, sql`select project_id, document::text from project_search order by project_id`),
    projectFacets: await rows(
      db,
      sql`select project_id, facets::text from project_facet order by project_id`,
    ),
    projectTerms: await rows(db, sql`select project_id, terms::text from project_term order by project_id`),
    projectLexemes: await rows(db, sql`select lexeme from project_lexeme order by lexeme`),
    freelancers: await rows(db, sql`select user_id, document::text from freelancer_search order by user_id`),
    freelancerTerms: await rows(
      db,
      sql`select user_id, terms::text, head::text from freelancer_profile order by user_id`,
    ),
    freelancerLexemes: await rows(db, sql`select lexeme from freelancer_lexeme order by lexeme`),
  }
}

/** JSON with one line per row, so a change to the recorded schema reads as a diff of rows. */
const lines = (all: Record<string, Record<string, unknown[]>>) =>
  `{\n${Object.entries(all)
    .map(
      ([dialect, parts]) =>
        `"${dialect}": {\n${Object.entries(parts)
          .map(([part, list]) => `"${part}": [\n${list.map((row) => JSON.stringify(row)).join(',\n')}\n]`)
          .join(',\n')}\n}`,
    )
    .join(',\n')}\n}\n`

function recorded(dialect: Dialect, schema: unknown) {
  const all = fs.existsSync(snapshotFile) ? JSON.parse(fs.readFileSync(snapshotFile, 'utf8')) : {}
  if (process.env.UPDATE_SCHEMA_SNAPSHOT) fs.writeFileSync(snapshotFile, lines({ ...all, [dialect]: schema }))
  return process.env.UPDATE_SCHEMA_SNAPSHOT ? schema : all[dialect]
}

describe.each(dialects)('upgrading an early marketplace on %s', (dialect) => {
  // Two empty databases: one migrated straight, one upgraded step by step with rows written along the way.
  const straight = useTestDatabase(dialect, undefined, { open: { migrate: false } })
  const upgraded = useTestDatabase(dialect, undefined, { open: { migrate: false } })
  const ids = {} as Ids

  it('migrated straight to the last frozen migration, has the schema recorded then', async () => {
    await migrateToLatest(straight.database, upTo(FROZEN))
    const schema = JSON.parse(JSON.stringify(await schemaOf(straight.database.db, dialect)))
    expect(schema).toEqual(recorded(dialect, schema))
    await migrateToLatest(straight.database)
  })

  it('upgrades a marketplace written along the way to the schema of a database migrated straight', async () => {
    for (const step of steps) {
      await migrateToLatest(upgraded.database, upTo(step.after))
      await step.fill(upgraded.database.db, dialect, ids)
    }
    expect(await migrateToLatest(upgraded.database)).toEqual(
      names.slice(names.indexOf(steps.at(-1)!.after) + 1),
    )
    expect(await schemaOf(upgraded.database.db, dialect)).toEqual(
      await schemaOf(straight.database.db, dialect),
    )
    const count = async (table: string) =>
      Number((await rows(upgraded.database.db, sql`select count(*) as n from ${sql.table(table)}`))[0].n)
    expect(
      await Promise.all(['app_user', 'freelancer_profile', 'project', 'proposal', 'notification'].map(count)),
    ).toEqual([4, 3, 3, 1, 1])
  })

  it("today's Find Project finds the early projects by word and filter, never the draft", async () => {
    const api = moduleTestApi(upgraded.database, { name: 'upgrade', addressBlock: 14 })
    const found = async (query: string) => {
      const answer = await api.call('GET', `projects?${query}`)
      expect(answer.status, answer.text).toBe(200)
      return answer.json.data.map((p: { id: number }) => p.id)
    }
    try {
      expect(await found(`search=${words.project}`)).toEqual([ids.project])
      expect(
        await found(
          `search=${words.project}&country=ES&budgetMin=1000000&budgetType=fixed&remote=false&experienceLevel=expert&skills=${ids.prestressed}`,
        ),
      ).toEqual([ids.project])
      expect(await found(`search=${words.project}&budgetType=hourly`)).toEqual([])
      expect(
        await found(
          `search=${encodeURIComponent(words.lateProject)}&categoryId=${ids.category}&subcategoryId=${ids.subcategory}&budgetMax=9000&remote=true&skills=${ids.seismic}`,
        ),
      ).toEqual([ids.lateProject])
      expect(await found(`categoryId=${ids.category}&sort=newest`)).toEqual([ids.lateProject, ids.project])
      expect(await found(`search=${words.draft}`)).toEqual([])
    } finally {
      await api.close()
    }
  })

  it("today's Find Freelancers finds the early freelancers by word and filter, never the suspended one", async () => {
    const api = moduleTestApi(upgraded.database, { name: 'upgrade', addressBlock: 15 })
    try {
      const { token } = await api.user('client')
      const found = async (query: string) => {
        const answer = await api.call('GET', `freelancers/search?${query}`, { token })
        expect(answer.status, answer.text).toBe(200)
        return answer.json.data.map((f: { userId: number }) => f.userId)
      }
      expect(await found(`q=${encodeURIComponent(words.freelancer)}`)).toEqual([ids.freelancer])
      expect(
        await found(
          `q=${encodeURIComponent(words.freelancer)}&country=DE&language=de&experienceLevel=expert&availability=full-time&skills=${ids.prestressed}&sort=rating`,
        ),
      ).toEqual([ids.freelancer])
      expect(await found(`q=${encodeURIComponent(words.freelancer)}&country=ES`)).toEqual([])
      expect(
        await found(
          `q=${encodeURIComponent(words.lateFreelancer)}&language=es&availability=part-time&subcategoryId=${ids.subcategory}`,
        ),
      ).toEqual([])
      expect(
        await found(
          `q=${encodeURIComponent(words.lateFreelancer)}&language=es&availability=part-time&skills=${ids.seismic}&sort=rate-asc`,
        ),
      ).toEqual([ids.lateFreelancer])
      expect(await found(`q=${encodeURIComponent(words.suspended)}`)).toEqual([])
      // By name (migration 0021): folded, as a prefix, first and last; never a client or a suspended freelancer.
      expect(await found(`q=${encodeURIComponent('Brückner')}`)).toEqual([ids.freelancer])
      expect(await found('q=jurgen%20bruck')).toEqual([ids.freelancer])
      expect(await found(`q=${encodeURIComponent('Núñez')}&language=es`)).toEqual([ids.lateFreelancer])
      expect(await found('q=lund')).toEqual([])
      expect(await found('q=petrova')).toEqual([])
    } finally {
      await api.close()
    }
  })

  it("leaves the search data that today's modules write from the same rows", async () => {
    const migrated = await searchDataOf(upgraded.database.db, dialect)
    // Today's code writes every derived row again from the marketplace's own rows (last: it mends them).
    const db = upgraded.database.db
    await createProjectSearchIndex(dialect).rebuild(db)
    for (const userId of [ids.freelancer, ids.lateFreelancer, ids.suspended])
      await indexFreelancer(db, dialect, userId)
    const freelancers = createSearchIndex(db, dialect)
    await freelancers.copyTerms(db)
    await freelancers.keepAllLexemes(db)
    for (const userId of [ids.freelancer, ids.lateFreelancer, ids.suspended])
      await relistFreelancer(db, userId)
    expect(migrated).toEqual(await searchDataOf(db, dialect))
    // And the rows are there to compare: two open projects and every profile's facets.
    expect(migrated.projects.map((r: any) => r.rowid ?? r.project_id)).toEqual([ids.project, ids.lateProject])
    expect(migrated.listed).toEqual([
      { user_id: ids.freelancer, listed: 1 },
      { user_id: ids.lateFreelancer, listed: 1 },
      { user_id: ids.suspended, listed: 0 },
    ])
  })
})
