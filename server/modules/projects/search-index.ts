import { sql } from 'kysely'
import { keepLexemes, wholeWords } from '../../db/whole-words.ts'
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
// Each document also carries facet tokens (category, subcategory, skills, budget type, budget bounds,
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
/** Days are also grouped in periods of eight (by days since 1970), so 30 days ask ~10 tokens, not 31. */
const PERIOD_BITS = 3
/**
 * Budget buckets double in size (minor units). Each project carries "at least 2^k" (`a<k>`) and
 * "below 2^(k+1)" (`u<k>`) tokens for every k its bucket allows within [LOW_BUCKET, HIGH_BUCKET], so
 * a budget range asks one token per bound instead of an OR of buckets, which GIN merged slowly
 * (a minimum of 8,000.00 cost ~9 ms with a common word).
 */
const budgetBucket = (minor: number) => Math.floor(Math.log2(Math.max(1, minor)))
const LOW_BUCKET = 10
const HIGH_BUCKET = 30
/** How many of the newest project ids PostgreSQL walks before it intersects the index instead. */
const RECENT = 1000
/** Matches among the newest RECENT rows from which walking on beats asking the index. */
const WALK_ON = 120
/** Marks a facet among the words of PostgreSQL's project_term (a search word is letters and digits only). */
const FACET = '~'
/**
 * PostgreSQL's project_term also marks each project's block of 4,096 project ids (`~w24`), so the
 * index can be asked for the matches among the newest blocks only (migration 0018).
 */
export const BLOCK_BITS = 12
const blockFacet = (block: number) => `w${block}`

export function facetTokens(p: FacetSource, skillIds: readonly number[]) {
  const tokens = ['open', `t${p.budget_type}`, `m${p.currency.toLowerCase()}`, `r${p.remote ? 1 : 0}`]
  const bucket = budgetBucket(p.budget_minor)
  for (let k = LOW_BUCKET; k <= Math.min(bucket, HIGH_BUCKET); k++) tokens.push(`a${k}`)
  for (let k = Math.max(bucket, LOW_BUCKET); k <= HIGH_BUCKET; k++) tokens.push(`u${k}`)
  if (p.category_id) tokens.push(`c${p.category_id}`)
  if (p.subcategory_id) tokens.push(`s${p.subcategory_id}`)
  if (p.experience_level) tokens.push(`l${p.experience_level}`)
  if (p.country) tokens.push(`n${p.country.toLowerCase()}`)
  if (p.published_at) {
    const published = Date.parse(p.published_at)
    tokens.push(`d${day(published)}`, `e${Math.floor(published / DAY) >> PERIOD_BITS}`)
  }
  for (const id of skillIds) tokens.push(`k${id}`)
  return tokens
}

/** The day and period tokens that cover the days from `since` to `now` (whole UTC days). */
function dayTokens(since: number, now: number) {
  const tokens: string[] = []
  const last = Math.floor(now / DAY)
  for (let d = Math.floor(since / DAY); d <= last;) {
    const period = d >> PERIOD_BITS
    if (d === period << PERIOD_BITS && ((period + 1) << PERIOD_BITS) - 1 <= last) {
      tokens.push(`e${period}`)
      d += 1 << PERIOD_BITS
    } else tokens.push(`d${day(d++ * DAY)}`)
  }
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
  if (f.publishedSince !== undefined) all.push(dayTokens(f.publishedSince, now))
  // The tokens narrow a budget range to its buckets; the exact bounds apply on the project row.
  if (f.budgetMin !== undefined && f.budgetMax !== undefined && f.budgetMin > f.budgetMax) all.push([])
  if (f.budgetMin !== undefined && budgetBucket(f.budgetMin) > LOW_BUCKET)
    all.push([`a${Math.min(budgetBucket(f.budgetMin), HIGH_BUCKET)}`])
  if (f.budgetMax !== undefined && budgetBucket(f.budgetMax) < HIGH_BUCKET)
    all.push([`u${Math.max(budgetBucket(f.budgetMax), LOW_BUCKET)}`])
  return all
}

/** How PostgreSQL's searchWindow chooses between walking and the index (tests make these small). */
export interface WalkLimits {
  recent: number
  walkOn: number
}

export function createProjectSearchIndex(
  dialect: Dialect,
  { recent, walkOn }: WalkLimits = { recent: RECENT, walkOn: WALK_ON },
) {
  type Entry = { id: number; doc: ProjectDocument; facets: string[] }
  async function write(executor: DB, entries: Entry[], terms = true) {
    if (!entries.length) return
    const ids = entries.map((e) => e.id)
    if (dialect === 'sqlite') {
      await sql`delete from project_search where rowid in (${sql.join(ids)})`.execute(executor)
      const values = entries.map(
        (e) =>
          sql`(${e.id}, ${fold(e.doc.title)}, ${fold(e.doc.description)}, ${fold(e.doc.skills)}, ${e.facets.join(' ')})`,
      )
      await sql`insert into project_search (rowid, title, description, skills, facets) values ${sql.join(values)}`.execute(
        executor,
      )
    } else {
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

  async function put(executor: DB, projectId: number, doc: ProjectDocument) {
    const [row, skillRows] = await Promise.all([
      executor.selectFrom('project').select(facetColumns).where('id', '=', projectId).executeTakeFirst(),
      executor.selectFrom('project_skill').select('skill_id').where('project_id', '=', projectId).execute(),
    ])
    if (row)
      await write(executor, [
        {
          id: projectId,
          doc,
          facets: facetTokens(
            row,
            skillRows.map((s) => s.skill_id),
          ),
        },
      ])
  }

  async function remove(executor: DB, projectId: number) {
    if (dialect === 'sqlite')
      await sql`delete from project_search where rowid = ${projectId}`.execute(executor)
    else {
      await sql`delete from project_search where project_id = ${projectId}`.execute(executor)
      await sql`delete from project_facet where project_id = ${projectId}`.execute(executor)
      await sql`delete from project_term where project_id = ${projectId}`.execute(executor)
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
      if (tokens.length)
        parts.unshift(`{title description skills} : (${tokens.map((t) => `"${t}"*`).join(' AND ')})`)
      return { sqlite: parts.join(' AND '), words: null, facets: '', terms: '' }
    }
    // tsquery literals (cast, not parsed); tokens are letters and digits, facets letters, digits.
    // PostgreSQL: the words as prefixes and the marked facets, for project_term's one index; the
    // facets alone (unmarked) for project_facet.
    const words = tokens.length ? tokens.map((t) => `'${t}':*`).join(' & ') : null
    const sets = (mark: string) => facets.map((set) => `(${set.map((f) => `'${mark}${f}'`).join(' | ')})`)
    return {
      sqlite: null,
      words,
      facets: sets('').join(' & '),
      terms: [...(words ? [words] : []), ...sets(FACET)].join(' & '),
    }
  }
  type IndexQuery = NonNullable<ReturnType<typeof query>>

  /**
   * The newest `limit` matching projects (by project id) as `m(project_id, score)`, a smaller
   * score ranking higher (0 when `rank` is false). Ranking is paid for these rows only.
   */
  function window(q: IndexQuery, limit: number, rank: boolean) {
    if (q.sqlite !== null) {
      const score = rank ? sql`bm25(project_search, 10.0, 1.0, 4.0, 0.0)` : sql`0`
      return sql<M>`(select rowid as project_id, ${score} as score from project_search where project_search match ${q.sqlite} order by rowid desc limit ${limit})`.as(
        'm',
      )
    }
    // Without words the narrow facet rows answer alone. ts_rank runs above the limit.
    if (!q.words)
      return sql<M>`(select project_id, 0 as score from project_facet where facets @@ ${q.facets}::tsquery order by project_id desc limit ${limit})`.as(
        'm',
      )
    const inner = sql`select project_id from project_term where terms @@ ${q.terms}::tsquery order by project_id desc limit ${limit}`
    return ranked(sql`(${inner})`, q, rank)
  }

  type M = { project_id: number; score: number }
  /** `m(project_id, score)` over a window of ids; ts_rank reads the weighted document of those rows only. */
  const ranked = (ids: ReturnType<typeof sql>, q: IndexQuery, rank: boolean) =>
    rank && q.words
      ? sql<M>`(select t.project_id, -ts_rank(s.document, ${q.words}::tsquery) as score from ${ids} t join project_search s on s.project_id = t.project_id)`.as(
          'm',
        )
      : sql<M>`(select t.project_id, 0 as score from ${ids} t)`.as('m')

  /**
   * `window`, for Find Project. On PostgreSQL, words (with or without filters) are looked up in
   * project_term, one GIN index over words and marked facets, in two bounded steps rather than
   * left to the planner: first among the newest RECENT projects only (a bounded walk, which a
   * common word fills); when that finds fewer than `limit`, the combination is rare and the GIN
   * index intersects it (`project_id + 0` keeps the planner from walking every row newest first).
   */
  async function searchWindow(executor: DB, q: IndexQuery, limit: number, rank: boolean) {
    if (q.sqlite !== null || !q.words) return window(q, limit, rank)
    // ts_match_vq is @@ without its index: rows are read newest first, stopping at `limit`.
    const newest =
      (await sql<{ id: number | null }>`select max(project_id) as id from project_term`.execute(executor))
        .rows[0]?.id ?? 0
    const walk = async (from: number, to: number, n: number) =>
      (
        await sql<{
          project_id: number
        }>`select project_id from project_term where project_id > ${to} and project_id <= ${from} and ts_match_vq(terms, ${q.terms}::tsquery) order by project_id desc limit ${n}`.execute(
          executor,
        )
      ).rows
    let rows = await walk(newest, newest - recent, limit)
    // Common enough (≥ WALK_ON in RECENT rows, 12 %): walking on for the rest (1.5 times the rows the
    // rate seen predicts, ~0.8 µs a row) is cheaper than reading ~1,500 GIN matches (~4 µs each).
    // Below that, the walk only measures the rate for fromIndex: a short one (1,000 rows, not 4,000)
    // gave p95 31-37 ms instead of 38-45 on the bench's mix, run by turns on one machine.
    if (rows.length >= walkOn && rows.length < limit) {
      const more = Math.ceil((1.5 * (limit - rows.length) * recent) / rows.length)
      rows = rows.concat(await walk(newest - recent, newest - recent - more, limit - rows.length))
    }
    if (rows.length < limit)
      rows = await fromIndex(
        executor,
        q,
        limit,
        newest,
        rows.length ? Math.ceil((1.5 * limit * recent) / rows.length) : Infinity,
      )
    return ranked(
      sql`(select * from unnest(${rows.map((r) => r.project_id)}::integer[]) as u(project_id))`,
      q,
      rank,
    )
  }

  /**
   * The newest `limit` matches from the GIN index. GIN yields every match unordered, and each is
   * then read from the table (~3 µs), so when the walk's rate says the window lies within the newest
   * `span` ids (1.5 times over), the index is asked for the matches in those ids' blocks first:
   * ~1,500 rows read instead of every match (a word with a category: 5,400 -> 1,400, 18 -> 5 ms).
   */
  async function fromIndex(executor: DB, q: IndexQuery, limit: number, newest: number, span: number) {
    const terms = await wholeWordsOf(executor, q)
    if (terms === null) return []
    const ask = async (query: string) =>
      (
        await sql<{
          project_id: number
        }>`select project_id from project_term where terms @@ ${query}::tsquery order by project_id + 0 desc limit ${limit}`.execute(
          executor,
        )
      ).rows
    if (span < newest / 2) {
      const blocks: string[] = []
      for (let b = newest >> BLOCK_BITS; b >= (newest - span) >> BLOCK_BITS; b--)
        blocks.push(`'${FACET}${blockFacet(b)}'`)
      const rows = await ask(`${terms} & (${blocks.join(' | ')})`)
      if (rows.length === limit) return rows
    }
    return ask(terms)
  }

  /**
   * q.terms with each word's prefix replaced by the whole lexemes it stands for (project_lexeme),
   * when they are few: GIN then skips through a common word's postings to the rare filter's
   * instead of reading them all (a prefix reads every posting first). Null when a word matches
   * no lexeme at all.
   */
  async function wholeWordsOf(executor: DB, q: IndexQuery) {
    const facets = q.terms.slice(q.words!.length)
    const parts = await wholeWords(
      executor,
      'project_lexeme',
      q.words!.split(' & ').map((word) => word.slice(1, -3)),
    ) // 'token':*
    return parts === null ? null : parts.join(' & ') + facets
  }

  /** The matching projects as `m(project_id, score)` (a smaller score ranks higher), or null when the term has no words. */
  function match(term: string | undefined) {
    const q = query(term, [])
    return q ? window(q, 1000, true) : null
  }

  /** Writes the index again from the project table (migrations and seeds), a batch at a time. */
  async function rebuild(db: DB) {
    await sql`delete from project_search`.execute(db)
    // Migration 0009 runs this before 0012 has made project_term: the document alone then.
    const terms =
      dialect === 'postgres' &&
      (await sql<{ t: string | null }>`select to_regclass('project_term')::text as t`.execute(db)).rows[0]
        ?.t != null
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
      const skills = await db
        .selectFrom('project_skill as ps')
        .innerJoin('skill as s', 's.id', 'ps.skill_id')
        .select([
          'ps.project_id',
          'ps.skill_id',
          's.name_en',
          's.name_es',
          's.name_de',
          's.name_it',
          's.name_ru',
        ])
        .where(
          'ps.project_id',
          'in',
          rows.map((r) => r.id),
        )
        .execute()
      const of = Map.groupBy(skills, (s) => s.project_id)
      await write(
        db,
        rows.map((r) => {
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
        }),
        terms,
      )
    }
    if (dialect === 'sqlite')
      await sql`insert into project_search(project_search) values ('optimize')`.execute(db)
  }

  return { put, remove, query, window, searchWindow, match, rebuild }
}

export type ProjectSearchIndex = ReturnType<typeof createProjectSearchIndex>
