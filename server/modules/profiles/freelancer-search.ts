import type { Locale } from '#server/db/schema.ts'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { displayName } from '../identity/display-name.ts'
import { searchQuery, type SearchHit, type SearchQuery } from './contract.ts'
import { searchCap } from './rules.ts'
import { requireFinder } from './access.ts'
import { countryName, displayableType, fileUrl } from './display.ts'
import { pastTheCap, rankedMatches, unrankedMatches } from './search-matches.ts'
import { filtered, idsOf, inOrder, profilesOf } from './search-query.ts'
import type { ProfilesDeps } from './shared.ts'

// Find Freelancers and the search box's suggestions. Counting stops at searchCap ("1,000+"),
// paging stops there too (an offset never passes it), and a text search ranks only the rows it
// returns, so the work per request is bounded whatever the number of freelancers.

const hitColumns = [
  'fp.user_id',
  'fp.title',
  'fp.overview',
  'fp.country',
  'fp.experience_level',
  'fp.availability',
  'fp.hourly_rate_minor',
  'fp.currency',
  'fp.rating_x100',
  'fp.rating_count',
  'u.first_name',
  'u.last_name',
  'u.company_name',
  'u.status',
  'u.image_file_id',
  'img.type as image_type',
] as const
const hits = (db: DB) =>
  profilesOf(db)
    .innerJoin('app_user as u', 'u.id', 'fp.user_id')
    .leftJoin('stored_file as img', 'img.id', 'u.image_file_id')
    .select(hitColumns)
type HitRow = Awaited<ReturnType<ReturnType<typeof hits>['execute']>>[number]

/** The hit rows of these freelancers, in this order, and their skills named in `locale` (read side by side). */
async function hitsInOrder(db: DB, ids: number[], locale: Locale) {
  if (!ids.length) return { rows: [], skills: [] }
  const n = `name_${locale}` as const
  const [found, skills] = await Promise.all([
    hits(db).where('fp.user_id', 'in', ids).execute(),
    db
      .selectFrom('freelancer_skill as x')
      .innerJoin('skill as s', 's.id', 'x.skill_id')
      .select(['x.user_id', 's.id', `s.${n} as name`])
      .where('x.user_id', 'in', ids)
      .orderBy(`s.${n}`)
      .execute(),
  ])
  const byId = new Map(found.map((r) => [r.user_id, r]))
  return { rows: ids.map((id) => byId.get(id)).filter((r): r is HitRow => !!r), skills }
}

/** How many pass (up to searchCap + 1) and the ids of the asked page, in the asked order. */
async function pageOfMatches(deps: ProfilesDeps, query: SearchQuery, offset: number, size: number) {
  const { db, index } = deps
  const text = await index.match(query.q, query)
  if (text && query.sort === 'relevance') {
    const ids = await rankedMatches(deps, text, query)
    return { found: ids.length, pageIds: ids.slice(offset, offset + size) }
  }
  // Another order comes from the profile table. The freelancers that pass (the text and the
  // filters) are first taken as a bounded list, from whichever index is most selective; below
  // the cap that list is every one of them and the page is sorted from it. Above it, the page
  // comes from pastTheCap (search-matches.ts).
  const passing = text
    ? await unrankedMatches(deps, text, query)
    : (
        await filtered(db, query)
          .select('fp.user_id')
          .limit(searchCap + 1)
          .execute()
      ).map((r) => r.user_id)
  const found = passing.length
  if (!found || !size) return { found, pageIds: [] }
  const pageIds =
    found <= searchCap
      ? await idsOf(
          db,
          inOrder(profilesOf(db).where('fp.user_id', 'in', passing), query.sort)
            .limit(size)
            .offset(offset),
        )
      : await pastTheCap(deps, text, query, offset, size)
  return { found, pageIds }
}

function toHit(r: HitRow, skills: Array<{ id: number; name: string }>, locale: Locale): SearchHit {
  return {
    userId: r.user_id,
    name: displayName(r),
    imageUrl: r.image_file_id != null ? fileUrl(r.image_file_id) : null,
    imageDisplayable: r.image_file_id != null && displayableType(r.image_type),
    title: r.title,
    overview: r.overview.length > 300 ? `${r.overview.slice(0, 297)}…` : r.overview,
    country: r.country,
    countryName: countryName(locale, r.country),
    experienceLevel: r.experience_level,
    availability: r.availability,
    hourlyRate:
      r.hourly_rate_minor != null && r.currency
        ? { amountMinor: r.hourly_rate_minor, currency: r.currency }
        : null,
    rating: { average: r.rating_x100 / 100, count: r.rating_count },
    skills: skills.slice(0, 8).map(({ id, name }) => ({ id, name })),
  }
}

/** Find Freelancers: a page of listed freelancers for a client or a company. */
export async function searchFreelancers(
  deps: ProfilesDeps,
  caller: Caller,
  locale: Locale,
  query: SearchQuery,
) {
  requireFinder(caller)
  const offset = (query.page - 1) * query.pageSize
  const size = Math.max(0, Math.min(query.pageSize, searchCap - offset))
  const { found, pageIds } = await pageOfMatches(deps, query, offset, size)
  // The page's own rows are read after, by id (joining every passing profile to its user first
  // made PostgreSQL scan all users).
  const { rows, skills } = await hitsInOrder(deps.db, pageIds, locale)
  const total = Math.min(found, searchCap)
  const skillsOf = Map.groupBy(skills, (s) => s.user_id)
  return {
    data: rows.map((r) => toHit(r, skillsOf.get(r.user_id) ?? [], locale)),
    total,
    capped: found > searchCap,
    page: query.page,
    pageSize: query.pageSize,
    pages: Math.max(1, Math.ceil(total / query.pageSize)),
  }
}

/** Search hits of these freelancers, in this order (those no longer listed are left out): the saved freelancers' cards. */
export async function hitsOf(db: DB, ids: number[], locale: Locale) {
  const { rows, skills } = await hitsInOrder(db, ids, locale)
  const skillsOf = Map.groupBy(skills, (s) => s.user_id)
  return rows.filter((r) => r.status === 'Active').map((r) => toHit(r, skillsOf.get(r.user_id) ?? [], locale))
}

/** The search box's suggestions: the eight best matches of what was typed, by name and title. */
export async function suggestFreelancers(deps: ProfilesDeps, caller: Caller, term: string) {
  const { db, index } = deps
  requireFinder(caller)
  const text = await index.match(term)
  if (!text) return { data: [] }
  const ids = (await rankedMatches(deps, text, searchQuery.parse({}))).slice(0, 8)
  const byId = new Map(
    (ids.length
      ? await db
          .selectFrom('freelancer_profile as fp')
          .innerJoin('app_user as u', 'u.id', 'fp.user_id')
          .select(['fp.user_id', 'fp.title', 'u.first_name', 'u.last_name', 'u.company_name', 'u.status'])
          .where('fp.user_id', 'in', ids)
          .execute()
      : []
    ).map((r) => [r.user_id, r]),
  )
  return {
    data: ids.flatMap((id) => {
      const r = byId.get(id)
      return r ? [{ userId: r.user_id, name: displayName(r), title: r.title }] : []
    }),
  }
}
