import { sql, type CompiledQuery } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { SearchQuery } from './contract.ts'
import type { ProfilesQuery } from './search-index.ts'
import { verifiedIds } from '../verification/verified.ts'

// The SQL pieces of Find Freelancers: which listed profiles pass a query's filters, and in which
// order each sort reads them.

/** Each sort as ORDER BY terms, column for column the indexes of migration 0008. */
const sortOrders: Record<SearchQuery['sort'], Array<[string, 'asc' | 'desc']>> = {
  relevance: [
    ['fp.rating_x100', 'desc'],
    ['fp.updated_at', 'desc'],
    ['fp.user_id', 'desc'],
  ],
  rating: [
    ['fp.rating_x100', 'desc'],
    ['fp.rating_count', 'desc'],
    ['fp.user_id', 'desc'],
  ],
  'rate-asc': [
    ['coalesce(fp.hourly_rate_minor, 2147483647)', 'asc'],
    ['fp.user_id', 'asc'],
  ],
  'rate-desc': [
    ['coalesce(fp.hourly_rate_minor, -1)', 'desc'],
    ['fp.user_id', 'desc'],
  ],
  experience: [
    ['coalesce(fp.years_of_experience, -1)', 'desc'],
    ['fp.user_id', 'desc'],
  ],
  newest: [
    ['fp.created_at', 'desc'],
    ['fp.user_id', 'desc'],
  ],
}

/** The columns those orders read. */
export const sortColumns = [
  'fp.user_id',
  'fp.rating_x100',
  'fp.rating_count',
  'fp.updated_at',
  'fp.hourly_rate_minor',
  'fp.years_of_experience',
  'fp.created_at',
] as const

export type SearchFilters = Omit<SearchQuery, 'sort' | 'page' | 'pageSize'>

/** Freelancer profiles, as `fp`. */
export const profilesOf = (db: DB): ProfilesQuery => db.selectFrom('freelancer_profile as fp')

/**
 * Listed freelancers that pass every filter of the query (the text aside). `listed` already says
 * the account is active (listing.ts), so no user row is read until the page's own rows.
 * `facetsAnswered`: the text match already holds the facet filters as tokens of its index
 * (search-index.ts); asked again as columns they would only tempt the planner away from that index.
 */
export function filtered(db: DB, query: SearchFilters, from = profilesOf(db), facetsAnswered = false) {
  let q = from.where('fp.listed', '=', 1)
  // Verified identity is no facet of the text index: asked as a set, whichever way the rest is answered.
  if (query.verifiedOnly) q = q.where('fp.user_id', 'in', verifiedIds(db))
  if (facetsAnswered) return ranged(query, q)
  if (query.categoryId) q = q.where('fp.category_id', '=', query.categoryId)
  // Set membership (IN) rather than EXISTS, so the planner may start from the (value, user_id) index when it is the most selective.
  if (query.subcategoryId)
    q = q.where(
      'fp.user_id',
      'in',
      db
        .selectFrom('freelancer_subcategory')
        .select('user_id')
        .where('subcategory_id', '=', query.subcategoryId),
    )
  for (const skillId of new Set(query.skills ?? []))
    q = q.where(
      'fp.user_id',
      'in',
      db.selectFrom('freelancer_skill').select('user_id').where('skill_id', '=', skillId),
    )
  if (query.language)
    q = q.where(
      'fp.user_id',
      'in',
      db.selectFrom('freelancer_language').select('user_id').where('language_code', '=', query.language),
    )
  if (query.country) q = q.where('fp.country', '=', query.country)
  if (query.experienceLevel) q = q.where('fp.experience_level', '=', query.experienceLevel)
  if (query.availability) q = q.where('fp.availability', '=', query.availability)
  if (query.currency) q = q.where('fp.currency', '=', query.currency)
  return ranged(query, q)
}

/** The range filters, which are never facets. */
function ranged(query: SearchFilters, q: ProfilesQuery): ProfilesQuery {
  if (query.minRate !== undefined) q = q.where('fp.hourly_rate_minor', '>=', query.minRate)
  if (query.maxRate !== undefined) q = q.where('fp.hourly_rate_minor', '<=', query.maxRate)
  if (query.minRating) q = q.where('fp.rating_x100', '>=', Math.round(query.minRating * 100))
  return q
}

/** A query of profiles (as `fp`) in the order of a sort. */
export function inOrder<Q extends ProfilesQuery>(q: Q, sort: SearchQuery['sort']) {
  let ordered = q.select('fp.user_id')
  for (const [expression, direction] of sortOrders[sort])
    ordered = ordered.orderBy(sql.raw(expression), direction)
  return ordered
}

/** Runs a query of user ids on `executor` (the index-scan connection, when inside one). */
export const idsOf = async (executor: DB, q: { compile(): CompiledQuery<{ user_id: number }> }) =>
  (await executor.executeQuery(q.compile())).rows.map((r) => r.user_id)
