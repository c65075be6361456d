import { sql, type RawBuilder } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { SearchQuery } from './contract.ts'

// Find Freelancers sorted by another column than relevance, when a search's words match more than
// the cap (decision 013). The top of such a page are the best freelancers by that column among
// every match, and reading every match of a common word costs tens of milliseconds. So each
// profile's text index also holds, per sort column, the bucket its value falls in (a facet token:
// rating in quarter stars, rate in ranges, whole years, the month it joined). The search first asks
// for the matches in the best few buckets, then in more, until a page's worth is found: everyone
// outside those buckets is strictly worse by the sort's first column, so that page is exact.

/** The sorts that read buckets, and the column each one's buckets are of. */
export type BucketColumn = 'rating' | 'rate' | 'experience' | 'joined'
const columnOfSort: Partial<Record<SearchQuery['sort'], BucketColumn>> = {
  rating: 'rating',
  'rate-asc': 'rate',
  'rate-desc': 'rate',
  experience: 'experience',
  newest: 'joined',
}
export const bucketColumnOf = (sort: SearchQuery['sort']) => columnOfSort[sort]

// Hourly rates (minor units) at which a rate bucket starts; bucket i holds [rateStarts[i], rateStarts[i+1]).
const rateStarts = [
  0, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 11000, 12500, 15000,
  20000, 30000, 50000,
]
const MAX_YEARS = 50

/**
 * A profile's bucket of each column, as SQL over `fp` (a freelancer_profile row): the value the
 * facet token carries after the column's name (`rt.18`, `rate.7`, `exp.12`, `joined.202611`; a
 * missing rate or years is `none`, which sorts last both ways, as in the search's ORDER BY).
 */
export function bucketsOf(dialect: Dialect): Record<BucketColumn, RawBuilder<string>> {
  const rate = sql.raw(
    `case when fp.hourly_rate_minor is null then 'none' ${rateStarts.map((start, i) => `when fp.hourly_rate_minor < ${rateStarts[i + 1] ?? 2 ** 31 - 1} then '${i}'`).join(' ')} else '${rateStarts.length - 1}' end`,
  )
  if (dialect === 'sqlite')
    return {
      rating: sql`cast(fp.rating_x100 / 25 as text)`,
      rate: sql<string>`${rate}`,
      experience: sql`case when fp.years_of_experience is null then 'none' else cast(min(max(fp.years_of_experience, 0), ${sql.lit(MAX_YEARS)}) as text) end`,
      joined: sql`substr(fp.created_at, 1, 4) || substr(fp.created_at, 6, 2)`,
    }
  return {
    rating: sql`(fp.rating_x100 / 25)::text`,
    rate: sql<string>`${rate}`,
    experience: sql`case when fp.years_of_experience is null then 'none' else least(greatest(fp.years_of_experience, 0), ${sql.lit(MAX_YEARS)})::text end`,
    joined: sql`to_char(fp.created_at at time zone 'UTC', 'YYYYMM')`,
  }
}

/** Every bucket of a sort, best first (`none` last); `joined` runs from next month back to the oldest month seen. */
function bucketsInOrder(
  sort: SearchQuery['sort'],
  oldestMonth: string | undefined,
  now = new Date(),
): string[] {
  const down = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => String(from - i))
  switch (sort) {
    case 'rating':
      return down(20, 0)
    case 'rate-asc':
      return [...down(rateStarts.length - 1, 0).reverse(), 'none']
    case 'rate-desc':
      return [...down(rateStarts.length - 1, 0), 'none']
    case 'experience':
      return [...down(MAX_YEARS, 0), 'none']
    case 'newest': {
      // Next month too, so a clock a little ahead of this one's loses nobody.
      const months: string[] = []
      let y = now.getUTCFullYear()
      let m = now.getUTCMonth() + 2
      if (m > 12) [y, m] = [y + 1, 1]
      for (;;) {
        const month = `${y}${String(m).padStart(2, '0')}`
        months.push(month)
        if (!oldestMonth || month <= oldestMonth || months.length > 1200) return months
        if (--m === 0) [y, m] = [y - 1, 12]
      }
    }
    default:
      return []
  }
}

/** How many listed freelancers each bucket holds; only how many buckets a probe asks for depends on it. */
export type BucketCounts = Record<BucketColumn, Map<string, number>>

export async function countBuckets(db: DB, dialect: Dialect): Promise<BucketCounts> {
  const of = bucketsOf(dialect)
  const counted = async (column: BucketColumn) => {
    const rows = await db
      .selectFrom('freelancer_profile as fp')
      .select([of[column].as('bucket'), sql<number>`count(*)`.as('n')])
      .where('fp.listed', '=', 1)
      .groupBy(sql`1`)
      .execute()
    return new Map(rows.map((r) => [String(r.bucket), Number(r.n)]))
  }
  const [rating, rate, experience, joined] = await Promise.all([
    counted('rating'),
    counted('rate'),
    counted('experience'),
    counted('joined'),
  ])
  return { rating, rate, experience, joined }
}

/**
 * The buckets to ask for, probe after probe: each probe holds about eight times the freelancers of
 * the one before, starting near `wanted` times four. The last probe is every bucket but the final
 * ones, which the search does not ask for by bucket (it reads every match instead).
 */
export function probesFor(
  sort: SearchQuery['sort'],
  wanted: number,
  counts: BucketCounts,
  now = new Date(),
): string[][] {
  const column = bucketColumnOf(sort)
  if (!column) return []
  const count = counts[column]
  const oldest = column === 'joined' ? [...count.keys()].sort()[0] : undefined
  const order = bucketsInOrder(sort, oldest, now)
  const total = [...count.values()].reduce((a, b) => a + b, 0)
  const probes: string[][] = []
  let target = Math.max(wanted * 4, 50)
  let held = 0
  for (let i = 0; i < order.length; i++) {
    held += count.get(order[i]) ?? 0
    if (held >= target) {
      if (held >= total * 0.6) break // most of everyone: reading every match is as cheap
      probes.push(order.slice(0, i + 1))
      target = held * 8
    }
  }
  return probes
}
