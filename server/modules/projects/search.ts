import { sql } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'
import type { SearchQuery } from './contract.ts'
import { searchTokens } from './rules.ts'
import { facetQuery } from './search-facets.ts'
import type { ProjectSearchIndex } from './search-index.ts'
import type { ProjectRow } from './shared.ts'
import type { ProjectViews } from './views.ts'

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
/** The visibilities a searcher may find (decision 335): a visitor the public projects, anyone signed in also the signed-in-only ones. */
export const findable = (signedIn: boolean) => (signedIn ? ['public', 'signed_in'] : ['public'])

export async function findProjects(
  db: DB,
  index: ProjectSearchIndex,
  query: SearchQuery,
  now = Date.now(),
  signedIn = false,
) {
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
    .where('p.visibility', 'in', findable(signedIn))
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

/** Puts an open project into the full-text index, or takes a project that is not open out of it. */
export async function indexProject(
  index: ProjectSearchIndex,
  executor: DB,
  row: { id: number; title: string; description: string; status: string; visibility?: string },
) {
  // An invite-only project is found by no search (decision 335).
  if (row.status !== 'open' || row.visibility === 'invited') return index.remove(executor, row.id)
  const skills = await executor
    .selectFrom('project_skill as ps')
    .innerJoin('skill as s', 's.id', 'ps.skill_id')
    .select(['s.name_en', 's.name_es', 's.name_de', 's.name_it', 's.name_ru'])
    .where('ps.project_id', '=', row.id)
    .execute()
  // Skill names in all five languages, so a search in any of them finds the project.
  const names = [
    ...new Set(skills.flatMap((s) => [s.name_en, s.name_es, s.name_de, s.name_it, s.name_ru])),
  ].join(' ')
  await index.put(executor, row.id, { title: row.title, description: row.description, skills: names })
}

/** The header's search box: the best-matching open projects, or a link to the freelancer search. */
async function homeSearch(
  db: DB,
  index: ProjectSearchIndex,
  type: 'projects' | 'workneerer',
  term: string,
  signedIn: boolean,
) {
  const t = term.trim()
  if (type === 'workneerer') {
    const q = searchTokens(t).join(' ')
    const url = `/freelancers/freelancersearch?search=${encodeURIComponent(q || 'all')}`
    return { data: [{ id: 0, title: q || 'all', subtitle: '', url }] }
  }
  const text = index.match(t)
  const q = (
    text
      ? db.selectFrom(text).innerJoin('project as p', 'p.id', 'm.project_id')
      : db.selectFrom('project as p')
  )
    .where('p.status', '=', 'open')
    .where('p.visibility', 'in', findable(signedIn))
    .select(['p.id', 'p.title', 'p.budget_minor', 'p.currency'])
  const rows = await (text ? q.orderBy(sql`m.score`) : q.orderBy('p.published_at', 'desc')).limit(8).execute()
  return {
    data: rows.map((r) => ({
      id: r.id,
      title: r.title,
      subtitle: `${(r.budget_minor / 100).toFixed(2)} ${r.currency}`,
      url: `/projects/details/${r.id}`,
    })),
  }
}

/** Find Project, the header's search box, and the index the other use cases keep up to date. */
export function createProjectSearch({
  db,
  index,
  views,
}: {
  db: DB
  index: ProjectSearchIndex
  views: Pick<ProjectViews, 'summaries'>
}) {
  return {
    async search(query: SearchQuery, locale: Locale, signedIn = false) {
      const { rows, total } = await findProjects(db, index, query, Date.now(), signedIn)
      return { data: await views.summaries(rows, locale), page: query.page, pageSize: query.pageSize, total }
    },
    homeSearch: (type: 'projects' | 'workneerer', term: string, signedIn = false) =>
      homeSearch(db, index, type, term, signedIn),
    /** For seeds and benches: put an open project into the full-text index. */
    indexProject: (executor: DB, row: Parameters<typeof indexProject>[2]) =>
      indexProject(index, executor, row),
  }
}
