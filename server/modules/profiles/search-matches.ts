import type { DB } from '#server/db/database.ts'
import type { SearchQuery } from './contract.ts'
import { searchCap } from './rules.ts'
import type { FullTextMatch, ProfilesQuery } from './search-index.ts'
import { filtered, idsOf, inOrder, sortColumns } from './search-query.ts'
import { bucketColumnOf, countBuckets, probesFor } from './sort-buckets.ts'
import type { ProfilesDeps } from './shared.ts'

// Which freelancers a search's words match, bounded by the cap (searchCap + 1 rows at most), so
// the work per search stays the same however many freelancers there are or how common the words.

/** The filtered freelancers that match a tier of the text; the LIMIT stops the scan past the cap. */
function matching(db: DB, text: FullTextMatch, query: SearchQuery, tier: 'head' | 'all', executor: DB) {
  return filtered(db, query, text.from(tier, executor), text.answersFacets).limit(searchCap + 1)
}

/**
 * Up to searchCap + 1 filtered matches in relevance order. Each query's LIMIT stops its scan, so
 * only the rows returned are ranked. Below the cap that is every match, ranked by score: order
 * and count are exact. Above it, the candidates are the matches in the title or skills (then
 * the others), so a common word still brings its best-fitting freelancers first.
 */
export async function rankedMatches({ db, index }: ProfilesDeps, text: FullTextMatch, query: SearchQuery) {
  type Scored = { user_id: number; score: number }
  const byScore = (a: Scored, b: Scored) => Number(a.score) - Number(b.score) || b.user_id - a.user_id
  return index.withIndexScans(async (executor) => {
    const tier = (name: 'head' | 'all') =>
      matching(db, text, query, name, executor)
        .select(['fp.user_id', text.score.as('score')])
        .execute() as Promise<Scored[]>
    // The title and skills first: when they alone match past the cap (a common word), the
    // candidates are theirs and the rest of the text is never ranked.
    const head = (await tier('head')).sort(byScore)
    if (head.length > searchCap) return head.map((r) => r.user_id)
    const all = await tier('all')
    if (all.length <= searchCap) return all.sort(byScore).map((r) => r.user_id)
    const seen = new Set(head.map((r) => r.user_id))
    return [...head, ...all.filter((r) => !seen.has(r.user_id)).sort(byScore)]
      .slice(0, searchCap + 1)
      .map((r) => r.user_id)
  })
}

/** Up to searchCap + 1 filtered matches, in no particular order (for the other sorts). */
export async function unrankedMatches({ db, index }: ProfilesDeps, text: FullTextMatch, query: SearchQuery) {
  return index.withIndexScans(async (executor) =>
    (await matching(db, text, query, 'all', executor).select('fp.user_id').execute()).map((r) => r.user_id),
  )
}

/**
 * The first `wanted` matches of a text search in the order of its sort, when the words match
 * more than the cap: asked of the sort column's best buckets, then of about eight times as many
 * freelancers, until a probe holds `wanted` (everyone outside it sorts after). Null when the
 * sort has no buckets or no probe of few buckets holds enough; the caller then reads every match.
 */
async function topInBuckets(
  { db, dialect, index }: ProfilesDeps,
  text: FullTextMatch,
  query: SearchQuery,
  wanted: number,
): Promise<number[] | null> {
  const column = bucketColumnOf(query.sort)
  if (!column) return null
  const probes = probesFor(query.sort, wanted, await countBuckets(db, dialect))
  return index.withIndexScans(async (executor) => {
    for (const buckets of probes) {
      // OFFSET 0 keeps the match a query of its own, so PostgreSQL answers it from the GIN index
      // and sorts the few rows it returns, instead of walking the order's index and checking
      // each profile's lexemes (SQLite's CROSS JOIN already drives from the text index).
      const match = filtered(db, query, text.from('all', executor, { column, buckets }), true).select(
        sortColumns,
      )
      const matched = dialect === 'postgres' ? match.offset(0) : match
      const ids = await idsOf(
        executor,
        inOrder(executor.selectFrom(matched.as('fp')) as unknown as ProfilesQuery, query.sort).limit(wanted),
      )
      if (ids.length >= wanted) return ids
    }
    return null
  })
}

/** A page of another order than relevance when more than the cap pass. */
export async function pastTheCap(
  deps: ProfilesDeps,
  text: FullTextMatch | null,
  query: SearchQuery,
  offset: number,
  size: number,
) {
  const { db, index } = deps
  if (!text) return idsOf(db, inOrder(filtered(db, query), query.sort).limit(size).offset(offset))
  const top = await topInBuckets(deps, text, query, offset + size)
  if (top) return top.slice(offset)
  // Every match as a set of ids, which PostgreSQL must take from the GIN index (search-index.ts).
  return index.withIndexScans((executor) =>
    idsOf(
      executor,
      inOrder(filtered(db, query).where('fp.user_id', 'in', text.ids), query.sort)
        .limit(size)
        .offset(offset),
    ),
  )
}
