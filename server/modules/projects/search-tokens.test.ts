import { describe, expect, test } from 'vitest'
import { facetQuery, facetTokens, type FacetSource } from './search-facets.ts'

// Find Project's facet tokens against the filters they stand for, without a database: a project
// must match a filter's tokens whenever its row meets the filter (the exact bounds are then checked
// on the row), and a posted-within filter is exact to the day.
const DAY = 86_400_000
const project = (over: Partial<FacetSource>): FacetSource => ({
  category_id: 1,
  subcategory_id: 2,
  budget_type: 'fixed',
  budget_minor: 100_000,
  experience_level: 'expert',
  country: 'ES',
  currency: 'EUR',
  remote: 1,
  published_at: null,
  ...over,
})
/** Whether the project's tokens meet every token set of the query (one token of each). */
const matches = (p: FacetSource, query: string[][]) => {
  const tokens = new Set(facetTokens(p, []))
  return query.every((set) => set.some((t) => tokens.has(t)))
}

describe('Find Project facet tokens', () => {
  test('posted within N days matches exactly the projects published on those days', () => {
    // Sixteen days in a row (every place in a period of eight), at both ends of a day and noon;
    // every day offset 0..40.
    const nows = Array.from({ length: 16 }, (_, i) => Date.parse('2026-11-23T00:00:00Z') + i * DAY).flatMap(
      (day) => [day + 1000, day + DAY / 2, day + DAY - 1000],
    )
    for (const now of nows) {
      for (const days of [1, 3, 7, 30]) {
        const since = now - days * DAY
        const query = facetQuery({ publishedSince: since }, now)
        expect(query[0].length, `${days} days asks a few tokens`).toBeLessThanOrEqual(
          days < 8 ? days + 1 : 14,
        )
        for (let back = 0; back <= 40; back++) {
          const published = now - back * DAY
          const sameDayOrLater = Math.floor(published / DAY) >= Math.floor(since / DAY)
          expect(
            matches(project({ published_at: new Date(published).toISOString() }), query),
            `${days} days, published ${back} days before ${new Date(now).toISOString()}`,
          ).toBe(sameDayOrLater)
        }
      }
    }
  })

  test('budget bounds never lose a project in range and drop those a bucket away', () => {
    const budgets = [
      1,
      500,
      1023,
      1024,
      5_000,
      40_000,
      65_535,
      65_536,
      70_000,
      250_000,
      1_200_000,
      2 ** 30 - 1,
      2 ** 30,
      2 ** 35,
    ]
    const bucket = (v: number) => Math.floor(Math.log2(Math.max(1, v)))
    for (const min of [undefined, 0, 900, 1024, 40_001, 65_536, 70_000, 2 ** 31]) {
      for (const max of [undefined, 0, 1024, 65_535, 70_000, 250_000, 2 ** 30]) {
        const query = facetQuery({ budgetMin: min, budgetMax: max })
        for (const budget of budgets) {
          const inRange = (min === undefined || budget >= min) && (max === undefined || budget <= max)
          const found = matches(project({ budget_minor: budget }), query)
          const label = `budget ${budget} in [${min}, ${max}]`
          if (inRange) expect(found, label).toBe(true)
          // Inside the indexed buckets (10 to 30), a bucket outside the range's buckets is never matched.
          const inside = bucket(budget) >= 10 && bucket(budget) <= 30
          if (
            inside &&
            ((min !== undefined && bucket(budget) < Math.min(bucket(min), 30)) ||
              (max !== undefined && bucket(budget) > Math.max(bucket(max), 10)))
          )
            expect(found, label).toBe(false)
        }
      }
    }
    // A minimum above the maximum can match nothing, and says so without asking the index.
    expect(facetQuery({ budgetMin: 5_000, budgetMax: 4_000 }).some((set) => set.length === 0)).toBe(true)
  })
})
