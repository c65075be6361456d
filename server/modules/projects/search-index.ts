import { sql } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import { fold, searchTokens } from './rules.ts'

// The project full-text index, in the shape of the profiles module's freelancer index: SQLite FTS5
// (a virtual table whose rowid is the project id, ranked by bm25) and PostgreSQL (a tsvector per
// project with a GIN index, ranked by ts_rank). Text is folded (lower case, no diacritics) in JS
// before it is indexed and searched, every word of a query matches as a prefix, so both databases
// find the same projects. Only open projects are in the index: a project leaves it when it leaves
// open, which keeps Find Project's candidate set small.
//
// Each document also carries facet tokens (category, subcategory, skills, budget type and bucket,
// experience level, country, currency, remote, publication day; decision 060), so every filter of
// Find Project is an intersection inside the index rather than a scan of the project table. They
// live in their own column, which words are never matched against (FTS5 column / a second tsvector).
export interface ProjectDocument {
  title: string
  description: string
  skills: string
}

/** The columns of a project that its facets are made of. */
export interface FacetSource {
  category_id: number | null
  subcategory_id: number | null
  budget_type: string
  budget_minor: number
  experience_level: string | null
  country: string | null
  currency: string
  remote: number
  published_at: string | null
}

const DAY = 86_400_000
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '')
/** Budget buckets double in size (minor units), so a range filter is a short OR of buckets. */
export const budgetBucket = (minor: number) => Math.floor(Math.log2(Math.max(1, minor)))
const MAX_BUCKET = 40
/** How many of the newest project ids PostgreSQL walks before it intersects indexes instead. */
const RECENT = 8000

export function facetTokens(p: FacetSource, skillIds: readonly number[]) {
  const tokens = ['open', `t${p.budget_type}`, `b${budgetBucket(p.budget_minor)}`, `m${p.currency.toLowerCase()}`, `r${p.remote ? 1 : 0}`]
  if (p.category_id) tokens.push(`c${p.category_id}`)
  if (p.subcategory_id) tokens.push(`s${p.subcategory_id}`)
  if (p.experience_level) tokens.push(`l${p.experience_level}`)
  if (p.country) tokens.push(`n${p.country.toLowerCase()}`)
  if (p.published_at) tokens.push(`d${day(Date.parse(p.published_at))}`)
  for (const id of skillIds) tokens.push(`k${id}`)
  return tokens
}

/** What Find Project filters on: each entry is a set of tokens of which a project must have one. */
export interface FacetFilter {
  categoryId?: number
  subcategoryId?: number
  skills?: readonly number[]
  budgetType?: string
  budgetMin?: number
  budgetMax?: number
  experienceLevel?: string
  country?: string
  currency?: string
  remote?: boolean
  /** Published at or after this instant (the exact cut is applied on the project row). */
  publishedSince?: number
}

export function facetQuery(f: FacetFilter, now = Date.now()): string[][] {
  const all: string[][] = []
  if (f.categoryId) all.push([`c${f.categoryId}`])
  if (f.subcategoryId) all.push([`s${f.subcategoryId}`])
  if (f.skills?.length) all.push(f.skills.map((id) => `k${id}`))
  if (f.budgetType) all.push([`t${f.budgetType}`])
  if (f.experienceLevel) all.push([`l${f.experienceLevel}`])
  if (f.country) all.push([`n${f.country.toLowerCase()}`])
  if (f.currency) all.push([`m${f.currency.toLowerCase()}`])
  if (f.remote !== undefined) all.push([`r${f.remote ? 1 : 0}`])
  if (f.publishedSince !== undefined) {
    const days: string[] = []
    for (let t = now; day(t) >= day(f.publishedSince); t -= DAY) days.push(`d${day(t)}`)
    all.push(days)
  }
  if (f.budgetMin !== undefined || f.budgetMax !== undefined) {
    const from = budgetBucket(f.budgetMin ?? 0)
    const to = f.budgetMax === undefined ? MAX_BUCKET : Math.min(MAX_BUCKET, budgetBucket(f.budgetMax))
    // Every bucket: no filter is needed (the exact bounds still apply on the row).
    if (from > 0 || to < MAX_BUCKET) all.push(Array.from({ length: Math.max(0, to - from + 1) }, (_, k) => `b${from + k}`))
  }
  return all
}

export function createProjectSearchIndex(dialect: Dialect) {
  type Entry = { id: number; doc: ProjectDocument; facets: string[] }
  async function write(executor: DB, entries: Entry[]) {
    if (!entries.length) return
    const ids = entries.map((e) => e.id)
    if (dialect === 'sqlite') {
      await sql`delete from project_search where rowid in (${sql.join(ids)})`.execute(executor)
      const values = entries.map((e) => sql`(${e.id}, ${fold(e.doc.title)}, ${fold(e.doc.description)}, ${fold(e.doc.skills)}, ${e.facets.join(' ')})`)
      await sql`insert into project_search (rowid, title, description, skills, facets) values ${sql.join(values)}`.execute(executor)
    } else {
      const values = entries.map(
        (e) =>
          sql`(${e.id}, setweight(to_tsvector('simple', ${fold(e.doc.title)}), 'A') || setweight(to_tsvector('simple', ${fold(e.doc.skills)}), 'B') || setweight(to_tsvector('simple', ${fold(e.doc.description)}), 'C'), array_to_tsvector(${e.facets}::text[]))`,
      )
      await sql`insert into project_search (project_id, document, facets) values ${sql.join(values)} on conflict (project_id) do update set document = excluded.document, facets = excluded.facets`.execute(executor)
      const facets = entries.map((e) => sql`(${e.id}, array_to_tsvector(${e.facets}::text[]))`)
      await sql`insert into project_facet (project_id, facets) values ${sql.join(facets)} on conflict (project_id) do update set facets = excluded.facets`.execute(executor)
    }
  }

  const facetColumns = ['category_id', 'subcategory_id', 'budget_type', 'budget_minor', 'experience_level', 'country', 'currency', 'remote', 'published_at'] as const

  async function put(executor: DB, projectId: number, doc: ProjectDocument) {
    const [row, skillRows] = await Promise.all([
      executor.selectFrom('project').select(facetColumns).where('id', '=', projectId).executeTakeFirst(),
      executor.selectFrom('project_skill').select('skill_id').where('project_id', '=', projectId).execute(),
    ])
    if (row) await write(executor, [{ id: projectId, doc, facets: facetTokens(row, skillRows.map((s) => s.skill_id)) }])
  }

  async function remove(executor: DB, projectId: number) {
    if (dialect === 'sqlite') await sql`delete from project_search where rowid = ${projectId}`.execute(executor)
    else {
      await sql`delete from project_search where project_id = ${projectId}`.execute(executor)
      await sql`delete from project_facet where project_id = ${projectId}`.execute(executor)
    }
  }

  /**
   * The index query for words and filters: every word as a prefix (in the text only), and one
   * token of each facet set. Null when there is nothing to ask (no words, no filters).
   */
  function query(term: string | undefined, facets: string[][]) {
    const tokens = searchTokens(term)
    if (!tokens.length && !facets.length) return null
    if (dialect === 'sqlite') {
      const parts = facets.map((set) => `facets : (${set.join(' OR ')})`)
      if (tokens.length) parts.unshift(`{title description skills} : (${tokens.map((t) => `"${t}"*`).join(' AND ')})`)
      return { sqlite: parts.join(' AND '), words: null, facets: null }
    }
    // tsquery literals (cast, not parsed); tokens are letters and digits, facets letters, digits.
    return {
      sqlite: null,
      words: tokens.length ? tokens.map((t) => `'${t}':*`).join(' & ') : null,
      facets: facets.length ? facets.map((set) => `(${set.map((f) => `'${f}'`).join(' | ')})`).join(' & ') : null,
    }
  }
  type IndexQuery = NonNullable<ReturnType<typeof query>>

  /**
   * The newest `limit` matching projects (by project id) as `m(project_id, score)`, a smaller
   * score ranking higher (0 when `rank` is false). Ranking is paid for these rows only.
   */
  function window(q: IndexQuery, limit: number, rank: boolean) {
    type M = { project_id: number; score: number }
    if (q.sqlite !== null) {
      const score = rank ? sql`bm25(project_search, 10.0, 1.0, 4.0, 0.0)` : sql`0`
      return sql<M>`(select rowid as project_id, ${score} as score from project_search where project_search match ${q.sqlite} order by rowid desc limit ${limit})`.as('m')
    }
    // Without words the narrow facet rows answer alone. ts_rank runs above the limit.
    if (!q.words) return sql<M>`(select project_id, 0 as score from project_facet where facets @@ ${q.facets}::tsquery order by project_id desc limit ${limit})`.as('m')
    const inner = sql`select project_id, document from project_search where ${textAndFacets(q)} order by project_id desc limit ${limit}`
    return rank ? sql<M>`(select s.project_id, -ts_rank(s.document, ${q.words}::tsquery) as score from (${inner}) s)`.as('m') : sql<M>`(select s.project_id, 0 as score from (${inner}) s)`.as('m')
  }

  // Facets first: PostgreSQL keeps the written order of equally costly conditions, and the small
  // facets column is checked before the large text document is decompressed.
  const textAndFacets = (q: IndexQuery) => sql.join([q.facets ? sql`facets @@ ${q.facets}::tsquery` : null, sql`document @@ ${q.words}::tsquery`].filter((x) => x !== null), sql` and `)

  /**
   * `window`, for Find Project. On PostgreSQL, words and filters together are looked up in two
   * bounded steps rather than left to the planner, which walks the table newest first when it
   * expects many matches and then reads every wide row of a rare combination: first among the
   * newest RECENT projects only (a bounded walk); when that finds fewer than `limit`, the
   * combination is rare, and the GIN indexes intersect it (`project_id + 0` keeps the walk out).
   */
  async function searchWindow(executor: DB, q: IndexQuery, limit: number, rank: boolean) {
    if (q.sqlite !== null || !q.words || !q.facets) return window(q, limit, rank)
    const score = rank ? sql`-ts_rank(s.document, ${q.words}::tsquery)` : sql`0`
    const run = async (inner: ReturnType<typeof sql>) => (await sql<{ project_id: number; score: number }>`select s.project_id, ${score} as score from (${inner}) s`.execute(executor)).rows
    let rows = await run(sql`select project_id, document from project_search where project_id > (select max(project_id) - ${RECENT} from project_search) and ${textAndFacets(q)} order by project_id desc limit ${limit}`)
    if (rows.length < limit) rows = await run(sql`select project_id, document from project_search where ${textAndFacets(q)} order by project_id + 0 desc limit ${limit}`)
    const ids = rows.map((r) => r.project_id)
    const scores = rows.map((r) => Number(r.score))
    return sql<{ project_id: number; score: number }>`(select * from unnest(${ids}::integer[], ${scores}::float8[]) as u(project_id, score))`.as('m')
  }

  /** The matching projects as `m(project_id, score)` (a smaller score ranks higher), or null when the term has no words. */
  function match(term: string | undefined) {
    const q = query(term, [])
    return q ? window(q, 1000, true) : null
  }

  /** Writes the index again from the project table (migrations and seeds), a batch at a time. */
  async function rebuild(db: DB) {
    await sql`delete from project_search`.execute(db)
    if (dialect === 'postgres') await sql`delete from project_facet`.execute(db)
    for (let after = 0; ; ) {
      const rows = await db.selectFrom('project').select(['id', 'title', 'description', ...facetColumns]).where('status', '=', 'open').where('id', '>', after).orderBy('id').limit(500).execute()
      if (!rows.length) break
      after = rows.at(-1)!.id
      const skills = await db
        .selectFrom('project_skill as ps')
        .innerJoin('skill as s', 's.id', 'ps.skill_id')
        .select(['ps.project_id', 'ps.skill_id', 's.name_en', 's.name_es', 's.name_de', 's.name_it', 's.name_ru'])
        .where('ps.project_id', 'in', rows.map((r) => r.id))
        .execute()
      const of = Map.groupBy(skills, (s) => s.project_id)
      await write(
        db,
        rows.map((r) => {
          const own = of.get(r.id) ?? []
          const names = [...new Set(own.flatMap((s) => [s.name_en, s.name_es, s.name_de, s.name_it, s.name_ru]))].join(' ')
          return { id: r.id, doc: { title: r.title, description: r.description, skills: names }, facets: facetTokens(r, own.map((s) => s.skill_id)) }
        }),
      )
    }
    if (dialect === 'sqlite') await sql`insert into project_search(project_search) values ('optimize')`.execute(db)
  }

  return { put, remove, query, window, searchWindow, match, rebuild }
}

export type ProjectSearchIndex = ReturnType<typeof createProjectSearchIndex>
