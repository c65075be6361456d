import { sql } from 'kysely'
import { wholeWords } from '#server/db/whole-words.ts'
import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import { searchTokens } from './rules.ts'
import { BLOCK_BITS, FACET, blockFacet } from './search-facets.ts'

// Asking the project index: a query of words (each a prefix) and facet sets, and the newest
// matching projects as a window `m(project_id, score)` that Find Project sorts and pages. On
// PostgreSQL the window is found in bounded steps rather than left to the planner (decision 060).

/** How many of the newest project ids PostgreSQL walks before it intersects the index instead. */
const RECENT = 1000
/** Matches among the newest RECENT rows from which walking on beats asking the index. */
const WALK_ON = 120

/** How PostgreSQL's searchWindow chooses between walking and the index (tests make these small). */
export interface WalkLimits {
  recent: number
  walkOn: number
}
export const defaultWalkLimits: WalkLimits = { recent: RECENT, walkOn: WALK_ON }

/**
 * The index query for words and filters: every word as a prefix (in the text only), and one
 * token of each facet set. Null when there is nothing to ask (no words, no filters).
 */
export function indexQuery(dialect: Dialect, term: string | undefined, facets: string[][]) {
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
export type IndexQuery = NonNullable<ReturnType<typeof indexQuery>>

type M = { project_id: number; score: number }

/** `m(project_id, score)` over a window of ids; ts_rank reads the weighted document of those rows only. */
const ranked = (ids: ReturnType<typeof sql>, q: IndexQuery, rank: boolean) =>
  rank && q.words
    ? sql<M>`(select t.project_id, -ts_rank(s.document, ${q.words}::tsquery) as score from ${ids} t join project_search s on s.project_id = t.project_id)`.as(
        'm',
      )
    : sql<M>`(select t.project_id, 0 as score from ${ids} t)`.as('m')

/**
 * The newest `limit` matching projects (by project id) as `m(project_id, score)`, a smaller
 * score ranking higher (0 when `rank` is false). Ranking is paid for these rows only.
 */
export function window(q: IndexQuery, limit: number, rank: boolean) {
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
    q.words!.split(' & ').map((word) => word.slice(1, -3)), // 'token':*
  )
  return parts === null ? null : parts.join(' & ') + facets
}

/**
 * The newest `limit` matches from the GIN index. GIN yields every match unordered, and each is
 * then read from the table, so when the walk's rate says the window lies within the newest `span`
 * ids, the index is asked for the matches in those ids' blocks first.
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
 * `window`, for Find Project. On PostgreSQL, words (with or without filters) are looked up in
 * project_term, one GIN index over words and marked facets, in two bounded steps: first among the
 * newest RECENT projects only (a bounded walk, which a common word fills); when that finds fewer
 * than `limit`, the combination is rare and the GIN index intersects it (`project_id + 0` keeps
 * the planner from walking every row newest first).
 */
export async function searchWindow(
  executor: DB,
  q: IndexQuery,
  limit: number,
  rank: boolean,
  { recent, walkOn }: WalkLimits,
) {
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
  // A common combination walks on for the rest (1.5 times the rows its rate predicts), which costs
  // less than reading every GIN match; a rarer one's walk only measures the rate for fromIndex.
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
