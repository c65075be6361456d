import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { dialects } from '../../../tests/integration/databases.ts'
import { seedFreelancers } from '../../../bench/freelancers-search.ts'
import { profilesTestApi, useProfiles } from '../../../tests/support/modules/profiles.ts'
import { searchCap } from './rules.ts'
import { countBuckets, probesFor } from './sort-buckets.ts'
import { rateFreelancer } from './listing.ts'
import { createSearchIndex } from './search-index.ts'

// Find Freelancers past its cap (1,000 matches): the bounded queries of service.ts must return the
// same rows as a plain reference computed here from every profile row — filters, each sort, paging,
// the capped count — and a text search must rank title and skill matches first.
const COUNT = 1200

interface Profile {
  user_id: number
  country: string | null
  experience_level: string | null
  hourly_rate_minor: number | null
  years_of_experience: number | null
  rating_x100: number
  rating_count: number
  created_at: string
  updated_at: string
  title: string
}

describe.each(dialects)('Find Freelancers past the cap on %s', (dialect) => {
  const s = useProfiles(dialect)
  let token: string
  let profiles: Profile[]

  beforeAll(async () => {
    await seedFreelancers(s.database, COUNT)
    token = (await s.t.user('client', 'Sarah', 'Whitfield')).token
    profiles = (await s.database.db
      .selectFrom('freelancer_profile')
      .select([
        'user_id',
        'country',
        'experience_level',
        'hourly_rate_minor',
        'years_of_experience',
        'rating_x100',
        'rating_count',
        'created_at',
        'updated_at',
        'title',
      ])
      .execute()) as Profile[]
  }, 120_000)

  const search = async (qs: string) => {
    const r = await s.t.call('GET', `freelancers/search?${qs}`, { token })
    expect(r.status).toBe(200)
    return r.json as { data: Array<{ userId: number }>; total: number; capped: boolean; pages: number }
  }
  /** The ids the index itself finds for a word (every match, no filter, no limit). */
  const matchesOf = async (word: string, tier: 'head' | 'all' = 'all') => {
    const rows =
      dialect === 'sqlite'
        ? await sql<{
            id: number
          }>`select rowid as id from freelancer_search where freelancer_search match ${tier === 'head' ? `{title skills}: "${word}"*` : `"${word}"*`}`.execute(
            s.database.db,
          )
        : await sql<{
            id: number
          }>`select user_id as id from freelancer_search where document @@ to_tsquery('simple', ${tier === 'head' ? `${word}:*AB` : `${word}:*`})`.execute(
            s.database.db,
          )
    return new Set(rows.rows.map((r) => Number(r.id)))
  }
  const rate = (p: Profile, missing: number) => p.hourly_rate_minor ?? missing
  const orders: Record<string, (a: Profile, b: Profile) => number> = {
    'rate-asc': (a, b) => rate(a, 2 ** 31 - 1) - rate(b, 2 ** 31 - 1) || a.user_id - b.user_id,
    'rate-desc': (a, b) => rate(b, -1) - rate(a, -1) || b.user_id - a.user_id,
    rating: (a, b) =>
      b.rating_x100 - a.rating_x100 || b.rating_count - a.rating_count || b.user_id - a.user_id,
    experience: (a, b) =>
      (b.years_of_experience ?? -1) - (a.years_of_experience ?? -1) || b.user_id - a.user_id,
    newest: (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.user_id - a.user_id,
    relevance: (a, b) =>
      b.rating_x100 - a.rating_x100 ||
      Date.parse(b.updated_at) - Date.parse(a.updated_at) ||
      b.user_id - a.user_id,
  }
  const expectPage = async (qs: string, reference: Profile[], sort: string, page: number) => {
    const r = await search(`${qs}&sort=${sort}&page=${page}&pageSize=20`)
    const expected = [...reference].sort(orders[sort]).slice(0, searchCap)
    expect(r.total).toBe(Math.min(reference.length, searchCap))
    expect(r.capped).toBe(reference.length > searchCap)
    expect(r.data.map((h) => h.userId)).toEqual(
      expected.slice((page - 1) * 20, page * 20).map((p) => p.user_id),
    )
  }

  it('counts up to the cap, then says so, and never pages past it', async () => {
    expect(profiles.length).toBe(COUNT)
    await expectPage('', profiles, 'relevance', 1)
    const last = await search(`page=${searchCap / 20}&pageSize=20`)
    expect(last).toMatchObject({ total: searchCap, capped: true, pages: searchCap / 20 })
    expect(last.data).toHaveLength(20)
    expect((await search(`page=${searchCap / 20 + 1}&pageSize=20`)).data).toEqual([])
  })

  it('returns the same rows as the reference for every sort, with filters and without, on later pages', async () => {
    const es = profiles.filter((p) => p.country === 'ES' && p.experience_level === 'expert')
    for (const sort of Object.keys(orders)) {
      await expectPage('', profiles, sort, 3)
      await expectPage('country=ES&experienceLevel=expert', es, sort, 1)
    }
    const cheap = profiles.filter(
      (p) => p.hourly_rate_minor != null && p.hourly_rate_minor >= 3000 && p.hourly_rate_minor <= 6000,
    )
    await expectPage('minRate=3000&maxRate=6000', cheap, 'rate-desc', 2)
  })

  it('sorts a text search by any column exactly, above the cap and below it', async () => {
    const common = await matchesOf('structural')
    expect(common.size).toBeGreaterThan(searchCap) // the seed's most common trade word
    const withCommon = profiles.filter((p) => common.has(p.user_id))
    for (const sort of ['rate-asc', 'rate-desc', 'rating', 'newest', 'experience']) {
      await expectPage('q=structural', withCommon, sort, 2)
      await expectPage('q=structural', withCommon, sort, 7) // deeper: more buckets, or every match
    }
    // A range filter thins the best buckets: the probes widen until a page is full.
    const dear = withCommon.filter((p) => p.hourly_rate_minor != null && p.hourly_rate_minor >= 9000)
    expect(dear.length).toBeGreaterThan(20)
    await expectPage('q=structural&minRate=9000', dear, 'rating', 1)
    await expectPage('q=structural&minRate=9000', dear, 'newest', 1)
    const inSpain = withCommon.filter((p) => p.country === 'ES')
    expect(inSpain.length).toBeLessThan(searchCap)
    await expectPage('q=structural&country=ES', inSpain, 'experience', 1)
  })

  it("keeps each sort column's bucket in the index, follows a new rating, and widens when the best buckets hold too few matches", async () => {
    const counts = await countBuckets(s.database.db, dialect)
    // The probes of this data set ask for a few buckets first (so the path above is the buckets', not every match).
    expect(probesFor('rating', 40, counts)[0].length).toBeLessThan(10)
    expect(probesFor('newest', 40, counts).length).toBeGreaterThan(0)
    const inBucket = async (token: string) => {
      const rows =
        dialect === 'sqlite'
          ? await sql<{
              id: number
            }>`select rowid as id from freelancer_search where freelancer_search match ${`facets : "f${token.replace('.', '')}"`}`.execute(
              s.database.db,
            )
          : await sql<{
              id: number
            }>`select user_id as id from freelancer_profile where terms @@ ${`'~${token}'`}::tsquery`.execute(
              s.database.db,
            )
      return rows.rows.map((r) => Number(r.id)).toSorted((a, b) => a - b)
    }
    const ids = (list: Profile[]) => list.map((p) => p.user_id).toSorted((a, b) => a - b)
    // A word never matches a facet token (each starts with f on SQLite, ~ on PostgreSQL).
    for (const word of ['fcat', 'frt', 'fjoined']) expect((await search(`q=${word}`)).total).toBe(0)
    expect(await inBucket('rt.18')).toEqual(
      ids(profiles.filter((p) => Math.floor(p.rating_x100 / 25) === 18)),
    )
    expect(await inBucket('exp.7')).toEqual(ids(profiles.filter((p) => p.years_of_experience === 7)))
    expect(await inBucket('rate.none')).toEqual(ids(profiles.filter((p) => p.hourly_rate_minor == null)))
    const month = profiles[0].created_at.slice(0, 7).replace('-', '')
    expect(await inBucket(`joined.${month}`)).toEqual(
      ids(
        profiles.filter((p) => new Date(p.created_at).toISOString().slice(0, 7).replace('-', '') === month),
      ),
    )

    // An unrated freelancer who matches the common word gets five stars: first by rating at once.
    const common = await matchesOf('structural')
    const target = profiles.find((p) => p.rating_x100 === 0 && common.has(p.user_id))!
    await rateFreelancer(s.database.db, dialect, target.user_id, { average: 5, count: 99 })
    const first = await search('q=structural&sort=rating&pageSize=10')
    expect(first.capped).toBe(true)
    expect(first.data[0].userId).toBe(target.user_id)
    expect(await inBucket('rt.20')).toContain(target.user_id)
    expect(await inBucket('rt.0')).not.toContain(target.user_id)
    await rateFreelancer(s.database.db, dialect, target.user_id, { average: 0, count: 0 })

    // Few matches in the best bucket: 75 freelancers who do not match and 5 who do, all dearer
    // than anyone else. The first probe holds those 80 and so only 5 matches, fewer than a page;
    // the search widens, and the page is still the reference's.
    const dearest = [
      ...profiles.filter((p) => !common.has(p.user_id)).slice(0, 75),
      ...profiles.filter((p) => common.has(p.user_id)).slice(0, 5),
    ]
    expect(dearest.filter((p) => !common.has(p.user_id))).toHaveLength(75)
    const setRate = async (p: Profile, rate: number | null) => {
      await s.database.db
        .updateTable('freelancer_profile')
        .set({ hourly_rate_minor: rate })
        .where('user_id', '=', p.user_id)
        .execute()
      await createSearchIndex(s.database.db, dialect).copyTerms(s.database.db, p.user_id)
    }
    for (const p of dearest) await setRate(p, common.has(p.user_id) ? 55_000 : 60_000)
    const fresh = profilesTestApi(s.database) // bucket counts are kept five minutes: a new service counts them anew
    try {
      expect(probesFor('rate-desc', 20, await countBuckets(s.database.db, dialect))[0]).toEqual(['19'])
      const r = await fresh.call('GET', 'freelancers/search?q=structural&sort=rate-desc&pageSize=20', {
        token,
      })
      const dear = profiles
        .map((p) =>
          dearest.includes(p) ? { ...p, hourly_rate_minor: common.has(p.user_id) ? 55_000 : 60_000 } : p,
        )
        .filter((p) => common.has(p.user_id))
      expect(r.json.data.map((h: { userId: number }) => h.userId)).toEqual(
        dear
          .sort(orders['rate-desc'])
          .slice(0, 20)
          .map((p) => p.user_id),
      )
    } finally {
      for (const p of dearest) await setRate(p, p.hourly_rate_minor)
      await fresh.close()
    }
  })

  it('ranks every match below the cap, and title or skill matches first above it', async () => {
    const few = profiles.filter((p) => p.country === 'DE' && p.experience_level === 'entry')
    const common = await matchesOf('structural')
    const expected = few.filter((p) => common.has(p.user_id)).map((p) => p.user_id)
    const seen: number[] = []
    for (let page = 1; seen.length < expected.length; page++) {
      const r = await search(`q=structural&country=DE&experienceLevel=entry&page=${page}&pageSize=20`)
      expect(r).toMatchObject({ total: expected.length, capped: false })
      expect(r.data.length).toBeGreaterThan(0)
      seen.push(...r.data.map((h) => h.userId))
    }
    expect(seen.toSorted()).toEqual(expected.toSorted()) // every match once, across the pages

    // Above the cap: every match in the title or skills is a candidate, ahead of the others.
    const head = await matchesOf('structural', 'head')
    expect(head.size).toBeLessThan(searchCap)
    const ranked: number[] = []
    for (let page = 1; page <= searchCap / 50; page++) {
      const r = await search(`q=structural&page=${page}&pageSize=50`)
      expect(r).toMatchObject({ total: searchCap, capped: true })
      ranked.push(...r.data.map((h) => h.userId))
    }
    expect(new Set(ranked).size).toBe(searchCap)
    expect(ranked.slice(0, head.size).toSorted()).toEqual([...head].toSorted())
    expect(ranked.every((id) => common.has(id))).toBe(true)
  })
  it('lists only active accounts: a suspended freelancer leaves the results and comes back when reactivated', async () => {
    const few = profiles.filter((p) => p.country === 'IT' && p.experience_level === 'entry')
    const ids = async (page: number) =>
      (await search(`country=IT&experienceLevel=entry&sort=newest&pageSize=50&page=${page}`)).data.map(
        (h) => h.userId,
      )
    const target = few[0].user_id
    expect(await ids(1)).toContain(target)
    await s.t.api.services.identity.setStatus(s.database.db, target, 'Suspended')
    const listed = await s.database.db
      .selectFrom('freelancer_profile')
      .select('listed')
      .where('user_id', '=', target)
      .executeTakeFirstOrThrow()
    expect(listed.listed).toBe(0)
    // A query not asked before (recent answers are kept 30 s): without the suspended freelancer.
    const suspended = await search(`country=IT&experienceLevel=entry&sort=rating&pageSize=50`)
    expect(suspended.total).toBe(few.length - 1)
    expect(suspended.data.map((h) => h.userId)).not.toContain(target)
    await s.t.api.services.identity.setStatus(s.database.db, target, 'Active')
    const back = await search(`country=IT&experienceLevel=entry&sort=experience&pageSize=50`)
    expect(back.total).toBe(few.length)
  })
  it('offers as filters only the countries and languages that listed freelancers have', async () => {
    const r = await s.t.call('GET', 'freelancers/search/facets', { token })
    expect(r.status).toBe(200)
    const facets = r.json as {
      countries: Array<{ code: string; name: string }>
      languages: Array<{ code: string; name: string }>
    }
    const codes = (list: Array<{ code: string }>) => list.map((x) => x.code).toSorted()
    expect(codes(facets.countries)).toEqual(
      [...new Set(profiles.map((p) => p.country).filter((c): c is string => !!c))].toSorted(),
    )
    const languages = await s.database.db
      .selectFrom('freelancer_language')
      .select('language_code')
      .distinct()
      .execute()
    expect(codes(facets.languages)).toEqual(languages.map((l) => l.language_code).toSorted())
    expect(facets.countries.length).toBeLessThan(20) // the seed's 15, not every country
    expect(facets.countries.find((c) => c.code === 'ES')?.name).toBe('Spain')
    const names = facets.countries.map((c) => c.name)
    expect(names).toEqual(names.toSorted((a, b) => a.localeCompare(b, 'en')))
    const freelancer = await s.t.user('freelancer', 'Fiona', 'Facets')
    expect((await s.t.call('GET', 'freelancers/search/facets', { token: freelancer.token })).status).toBe(403)
  })
})
