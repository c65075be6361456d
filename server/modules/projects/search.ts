import { sql, type Selectable } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { Database } from '../../db/schema.ts'
import type { SearchQuery } from './contract.ts'
import { searchTokens } from './rules.ts'
import { facetQuery, type ProjectSearchIndex } from './search-index.ts'

type ProjectRow = Selectable<Database['project']>

/**
 * Find Project looks at the newest SEARCH_WINDOW projects (by project number) that match the words
 * and every filter, and sorts and pages those (decision 060). The total is therefore at most this
 * many; the list says "1,000+" when it is reached.
 */
export const SEARCH_WINDOW = 1000
const DAY = 86_400_000

// The filtered, full-text project list (issue 6): one index query (words and filters as facet
// tokens, stopping at the window), one narrow query over those rows (the exact budget and date
// bounds, the sort, the page and the count in one pass), then the page's rows by primary key.
export function createProjectSearch({ db, index }: { db: DB; index: ProjectSearchIndex }) {
  async function search(query: SearchQuery, now = Date.now()) {
    const words = searchTokens(query.search).length > 0
    const sort =
      query.sort === 'relevance' && !words ? 'newest' : (query.sort ?? (words ? 'relevance' : 'newest'))
    const publishedSince = query.postedWithin ? now - query.postedWithin * DAY : undefined
    const facets = facetQuery({ ...query, publishedSince }, now)
    // A filter nothing can meet (a budget minimum above the maximum) finds nothing.
    if (facets.some((set) => !set.length)) return { rows: [], total: 0 }
    // No words and no filters: every open project matches ("open" is a facet of each).
    const q = index.query(query.search, facets) ?? index.query(undefined, [['open']])!
    let page = db
      .selectFrom(await index.searchWindow(db, q, SEARCH_WINDOW, sort === 'relevance'))
      .innerJoin('project as p', 'p.id', 'm.project_id')
      .select(['p.id', sql<number>`count(*) over ()`.as('total')])
      .where('p.status', '=', 'open')
    if (query.budgetMin !== undefined) page = page.where('p.budget_minor', '>=', query.budgetMin)
    if (query.budgetMax !== undefined) page = page.where('p.budget_minor', '<=', query.budgetMax)
    if (publishedSince !== undefined)
      page = page.where('p.published_at', '>=', new Date(publishedSince).toISOString())
    switch (sort) {
      case 'relevance':
        page = page.orderBy(sql`m.score`)
        break
      case 'budget_high':
        page = page.orderBy('p.budget_minor', 'desc')
        break
      case 'budget_low':
        page = page.orderBy('p.budget_minor', 'asc')
        break
      case 'fewest_proposals':
        page = page.orderBy('p.proposal_count', 'asc')
        break
    }
    page = page.orderBy('p.published_at', 'desc').orderBy('p.id', 'desc')
    const offset = (query.page - 1) * query.pageSize
    const hits = offset >= SEARCH_WINDOW ? [] : await page.offset(offset).limit(query.pageSize).execute()
    // Past the last page the window query returns no row to carry the count: count on its own.
    const counted =
      !hits.length && offset
        ? await page
            .clearOrderBy()
            .clearSelect()
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirst()
        : undefined
    const total = hits.length ? Number(hits[0].total) : Number(counted?.n ?? 0)
    const rows = hits.length
      ? await db
          .selectFrom('project')
          .selectAll()
          .where(
            'id',
            'in',
            hits.map((h) => h.id),
          )
          .execute()
      : []
    const byId = new Map(rows.map((r) => [r.id, r]))
    return { rows: hits.map((h) => byId.get(h.id)).filter((r): r is ProjectRow => !!r), total }
  }

  return { search }
}
