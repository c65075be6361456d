import { sql } from 'kysely'
import type { Migration } from './helpers.ts'
import { copyFreelancerTerms } from './0016-freelancer-facets.ts'

// Find Freelancers sorted by rating, rate, experience or newest above the cap (issue 5, decision
// 013): each profile's facet tokens gain the bucket of each sort column (sort-buckets.ts), so such
// a page asks the text index for the matches in the best buckets instead of reading every match.
// The tokens are those the profiles module wrote on this migration's date (0016-freelancer-facets.ts). Rewriting every FTS5
// row leaves its index in many segments, which slows every search until they are merged: merged now.
export const freelancerSortBuckets: Migration = {
  async up(db, dialect) {
    await copyFreelancerTerms(db, dialect)
    if (dialect === 'sqlite')
      await sql`insert into freelancer_search (freelancer_search) values ('optimize')`.execute(db)
  },
}
