import { sql } from 'kysely'
import type { Migration } from './helpers.ts'
import { createSearchIndex } from '../../modules/profiles/search-index.ts'

// Find Freelancers sorted by rating, rate, experience or newest above the cap (issue 5, decision
// 013): each profile's facet tokens gain the bucket of each sort column (sort-buckets.ts), so such
// a page asks the text index for the matches in the best buckets instead of reading every match.
// The tokens are written by the same code that keeps them with every change. Rewriting every FTS5
// row leaves its index in many segments, which slows every search until they are merged: merged now.
export const freelancerSortBuckets: Migration = {
  async up(db, dialect) {
    await createSearchIndex(db, dialect).copyTerms(db)
    if (dialect === 'sqlite') await sql`insert into freelancer_search (freelancer_search) values ('optimize')`.execute(db)
  },
}
