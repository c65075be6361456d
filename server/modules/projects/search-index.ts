import { sql } from 'kysely'
import { keepLexemes } from '#server/db/whole-words.ts'
import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import { fold } from './rules.ts'
import { BLOCK_BITS, FACET, blockFacet, facetTokens } from './search-facets.ts'
import {
  defaultWalkLimits,
  indexQuery,
  searchWindow,
  window,
  type IndexQuery,
  type WalkLimits,
} from './search-window.ts'

// The project full-text index, in the shape of the profiles module's freelancer index: SQLite FTS5
// (a virtual table whose rowid is the project id, ranked by bm25) and PostgreSQL (a tsvector per
// project with a GIN index, ranked by ts_rank). Text is folded (lower case, no diacritics) in JS
// before it is indexed and searched, every word of a query matches as a prefix, so both databases
// find the same projects. Only open projects are in the index: a project leaves it when it leaves
// open, which keeps Find Project's candidate set small. Each document also carries its facet
// tokens (search-facets.ts) in a column of their own (FTS5 column / a second tsvector).
export interface ProjectDocument {
  title: string
  description: string
  skills: string
}

type Entry = { id: number; doc: ProjectDocument; facets: string[] }

async function writeSqlite(executor: DB, entries: Entry[]) {
  const ids = entries.map((e) => e.id)
  await sql`delete from project_search where rowid in (${sql.join(ids)})`.execute(executor)
  const values = entries.map(
    (e) =>
      sql`(${e.id}, ${fold(e.doc.title)}, ${fold(e.doc.description)}, ${fold(e.doc.skills)}, ${e.facets.join(' ')})`,
  )
  await sql`insert into project_search (rowid, title, description, skills, facets) values ${sql.join(values)}`.execute(
    executor,
  )
}

/** `terms` false: the document and facets only (migration 0009 runs before 0012 made project_term). */
async function writePostgres(executor: DB, entries: Entry[], terms: boolean) {
  const values = entries.map(
    (e) =>
      sql`(${e.id}, setweight(to_tsvector('simple', ${fold(e.doc.title)}), 'A') || setweight(to_tsvector('simple', ${fold(e.doc.skills)}), 'B') || setweight(to_tsvector('simple', ${fold(e.doc.description)}), 'C'))`,
  )
  await sql`insert into project_search (project_id, document) values ${sql.join(values)} on conflict (project_id) do update set document = excluded.document`.execute(
    executor,
  )
  const facets = entries.map((e) => sql`(${e.id}, array_to_tsvector(${e.facets}::text[]))`)
  await sql`insert into project_facet (project_id, facets) values ${sql.join(facets)} on conflict (project_id) do update set facets = excluded.facets`.execute(
    executor,
  )
  if (!terms) return
  // The narrow search row: the document's lexemes without positions, and the marked facets.
  const marked = entries.map(
    (e) =>
      sql`(${e.id}::integer, ${[...e.facets, blockFacet(e.id >> BLOCK_BITS)].map((f) => FACET + f).join(' ')}::text)`,
  )
  await sql`insert into project_term (project_id, terms) select s.project_id, strip(s.document) || array_to_tsvector(string_to_array(v.facets, ' ')) from (values ${sql.join(marked)}) v(project_id, facets) join project_search s on s.project_id = v.project_id on conflict (project_id) do update set terms = excluded.terms`.execute(
    executor,
  )
  await keepLexemes(
    executor,
    'project_lexeme',
    sql`select document from project_search where project_id in (${sql.join(entries.map((e) => e.id))})`,
  )
}

async function write(dialect: Dialect, executor: DB, entries: Entry[], terms = true) {
  if (!entries.length) return
  if (dialect === 'sqlite') await writeSqlite(executor, entries)
  else await writePostgres(executor, entries, terms)
}

const facetColumns = [
  'category_id',
  'subcategory_id',
  'budget_type',
  'budget_minor',
  'experience_level',
  'country',
  'currency',
  'remote',
  'published_at',
] as const

async function put(dialect: Dialect, executor: DB, projectId: number, doc: ProjectDocument) {
  const [row, skillRows] = await Promise.all([
    executor.selectFrom('project').select(facetColumns).where('id', '=', projectId).executeTakeFirst(),
    executor.selectFrom('project_skill').select('skill_id').where('project_id', '=', projectId).execute(),
  ])
  if (!row) return
  const facets = facetTokens(
    row,
    skillRows.map((s) => s.skill_id),
  )
  await write(dialect, executor, [{ id: projectId, doc, facets }])
}

async function remove(dialect: Dialect, executor: DB, projectId: number) {
  if (dialect === 'sqlite') await sql`delete from project_search where rowid = ${projectId}`.execute(executor)
  else {
    await sql`delete from project_search where project_id = ${projectId}`.execute(executor)
    await sql`delete from project_facet where project_id = ${projectId}`.execute(executor)
    await sql`delete from project_term where project_id = ${projectId}`.execute(executor)
  }
}

/** The index entries of a batch of open projects, with their skill names in all five languages. */
async function entriesOf(
  db: DB,
  rows: Array<Parameters<typeof facetTokens>[0] & { id: number; title: string; description: string }>,
) {
  const skills = await db
    .selectFrom('project_skill as ps')
    .innerJoin('skill as s', 's.id', 'ps.skill_id')
    .select(['ps.project_id', 'ps.skill_id', 's.name_en', 's.name_es', 's.name_de', 's.name_it', 's.name_ru'])
    .where(
      'ps.project_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute()
  const of = Map.groupBy(skills, (s) => s.project_id)
  return rows.map((r) => {
    const own = of.get(r.id) ?? []
    const names = [
      ...new Set(own.flatMap((s) => [s.name_en, s.name_es, s.name_de, s.name_it, s.name_ru])),
    ].join(' ')
    return {
      id: r.id,
      doc: { title: r.title, description: r.description, skills: names },
      facets: facetTokens(
        r,
        own.map((s) => s.skill_id),
      ),
    }
  })
}

/** Writes the index again from the project table (migrations and seeds), a batch at a time. */
async function rebuild(dialect: Dialect, db: DB) {
  await sql`delete from project_search`.execute(db)
  // Migration 0009 runs this before 0012 has made project_term: the document alone then.
  const terms =
    dialect === 'postgres' &&
    (await sql<{ t: string | null }>`select to_regclass('project_term')::text as t`.execute(db)).rows[0]?.t !=
      null
  if (dialect === 'postgres') await sql`delete from project_facet`.execute(db)
  if (terms) await sql`delete from project_term`.execute(db)
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('project')
      .select(['id', 'title', 'description', ...facetColumns])
      .where('status', '=', 'open')
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute()
    if (!rows.length) break
    after = rows.at(-1)!.id
    await write(dialect, db, await entriesOf(db, rows), terms)
  }
  if (dialect === 'sqlite')
    await sql`insert into project_search(project_search) values ('optimize')`.execute(db)
}

export function createProjectSearchIndex(dialect: Dialect, limits: WalkLimits = defaultWalkLimits) {
  return {
    put: (executor: DB, projectId: number, doc: ProjectDocument) => put(dialect, executor, projectId, doc),
    remove: (executor: DB, projectId: number) => remove(dialect, executor, projectId),
    query: (term: string | undefined, facets: string[][]) => indexQuery(dialect, term, facets),
    window,
    searchWindow: (executor: DB, q: IndexQuery, limit: number, rank: boolean) =>
      searchWindow(executor, q, limit, rank, limits),
    /** The matching projects as `m(project_id, score)` (a smaller score ranks higher), or null when the term has no words. */
    match(term: string | undefined) {
      const q = indexQuery(dialect, term, [])
      return q ? window(q, 1000, true) : null
    },
    rebuild: (db: DB) => rebuild(dialect, db),
  }
}

export type ProjectSearchIndex = ReturnType<typeof createProjectSearchIndex>
