import { sql } from 'kysely'
import type { Migration } from './helpers.ts'

// Find Freelancers at 50,000 profiles (issue 5): one index per sort, in exactly the order the
// search asks for (server/modules/profiles/service.ts, sortOrders), so a page is read in index
// order and the scan stops at the page instead of sorting every listed freelancer. A missing rate
// or years of experience sorts last through coalesce(), the same expression here and there.
export const freelancerSearchOrder: Migration = {
  async up(db) {
    const indexes: Record<string, string> = {
      relevance: 'listed, rating_x100, updated_at, user_id',
      rating: 'listed, rating_x100, rating_count, user_id',
      rate_asc: 'listed, coalesce(hourly_rate_minor, 2147483647), user_id',
      rate_desc: 'listed, coalesce(hourly_rate_minor, -1), user_id',
      experience: 'listed, coalesce(years_of_experience, -1), user_id',
      newest: 'listed, created_at, user_id',
    }
    for (const [name, columns] of Object.entries(indexes)) {
      await sql
        .raw(`create index freelancer_profile_sort_${name}_idx on freelancer_profile (${columns})`)
        .execute(db)
    }
  },
}
