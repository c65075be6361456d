import { sql, type Kysely } from 'kysely'
import type { Dialect } from './helpers.ts'

// Frozen: every freelancer's facet tokens with the sort buckets of migration 0016 (issue 5,
// decision 013), copied from server/modules/profiles/search-index.ts (copyTerms) and
// sort-buckets.ts on 2026-11-23 (commit 91145e5) so that what the migrations do never follows
// those modules again (decision 100). Migrations 0014 and 0015 run this same statement: 0016 runs
// it again over every profile, so a database of any release ends with these tokens. Never edit
// it; new tokens are a new migration with its own frozen copy.

// Hourly rates (minor units) at which a rate bucket starts; bucket i holds [rateStarts[i], rateStarts[i+1]).
const rateStarts = [
  0, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 11000, 12500, 15000,
  20000, 30000, 50000,
]
const MAX_YEARS = 50
const rate = sql.raw(
  `case when fp.hourly_rate_minor is null then 'none' ${rateStarts.map((start, i) => `when fp.hourly_rate_minor < ${rateStarts[i + 1] ?? 2 ** 31 - 1} then '${i}'`).join(' ')} else '${rateStarts.length - 1}' end`,
)

// Each sort column's token name and its bucket as SQL over `fp`, in the order the tokens are written.
const buckets = {
  sqlite: [
    ['rt', sql`cast(fp.rating_x100 / 25 as text)`],
    ['rate', sql`${rate}`],
    [
      'exp',
      sql`case when fp.years_of_experience is null then 'none' else cast(min(max(fp.years_of_experience, 0), ${sql.lit(MAX_YEARS)}) as text) end`,
    ],
    ['joined', sql`substr(fp.created_at, 1, 4) || substr(fp.created_at, 6, 2)`],
  ],
  postgres: [
    ['rt', sql`(fp.rating_x100 / 25)::text`],
    ['rate', sql`${rate}`],
    [
      'exp',
      sql`case when fp.years_of_experience is null then 'none' else least(greatest(fp.years_of_experience, 0), ${sql.lit(MAX_YEARS)})::text end`,
    ],
    ['joined', sql`to_char(fp.created_at at time zone 'UTC', 'YYYYMM')`],
  ],
} as const

/**
 * PostgreSQL: the profile row's `terms` and `head` (the search document's lexemes, all of them and
 * those of the title and skills) with the facet tokens marked "~" (migration 0014). SQLite: the
 * FTS5 row's `facets` column, one word per token (migration 0015).
 */
export async function copyFreelancerTerms(db: Kysely<any>, dialect: Dialect) {
  if (dialect === 'sqlite') {
    const facets = sql`(select trim(coalesce(' fcat' || fp.category_id, '') || coalesce(' fc' || fp.country, '') || coalesce(' flvl' || fp.experience_level, '')
      || coalesce(' fav' || replace(fp.availability, '-', ''), '') || coalesce(' fcur' || fp.currency, '')
      || ${sql.join(
        buckets.sqlite.map(([token, bucket]) => sql`coalesce(${` f${token}`} || ${bucket}, '')`),
        sql` || `,
      )}
      || coalesce((select ' ' || group_concat('fsub' || x.subcategory_id, ' ') from freelancer_subcategory x where x.user_id = fp.user_id), '')
      || coalesce((select ' ' || group_concat('fsk' || x.skill_id, ' ') from freelancer_skill x where x.user_id = fp.user_id), '')
      || coalesce((select ' ' || group_concat('flang' || x.language_code, ' ') from freelancer_language x where x.user_id = fp.user_id), ''))
      from freelancer_profile fp where fp.user_id = freelancer_search.rowid)`
    await sql`update freelancer_search set facets = ${facets}`.execute(db)
    return
  }
  const facets = sql`array_to_tsvector(array_remove(array['~cat.' || fp.category_id, '~c.' || fp.country, '~lvl.' || fp.experience_level, '~av.' || fp.availability, '~cur.' || fp.currency,
      ${sql.join(buckets.postgres.map(([token, bucket]) => sql`${`~${token}.`} || ${bucket}`))}], null)
    || coalesce((select array_agg('~sub.' || x.subcategory_id) from freelancer_subcategory x where x.user_id = fp.user_id), '{}')
    || coalesce((select array_agg('~sk.' || x.skill_id) from freelancer_skill x where x.user_id = fp.user_id), '{}')
    || coalesce((select array_agg('~lang.' || x.language_code) from freelancer_language x where x.user_id = fp.user_id), '{}'))`
  // The facets once per profile (a CTE: an UPDATE cannot read its own row in a LATERAL join).
  await sql`with f as (select fp.user_id, ${facets} as facets from freelancer_profile fp)
    update freelancer_profile p set terms = strip(fs.document) || f.facets, head = strip(ts_filter(fs.document, '{a,b}')) || f.facets
    from f join freelancer_search fs on fs.user_id = f.user_id where p.user_id = f.user_id`.execute(db)
}
