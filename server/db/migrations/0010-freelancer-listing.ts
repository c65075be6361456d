import { sql } from 'kysely'
import type { Migration } from './helpers.ts'

// `freelancer_profile.listed` now also says the account is active (server/modules/profiles/
// listing.ts, decision 013), so Find Freelancers no longer joins every user to check its status.
// Profiles of accounts that are not active today stop being listed.
//
// On PostgreSQL the head tier (every word in the title or skills) gets its own GIN index over the
// document's A and B lexemes: asked as `word:*AB` the planner could not estimate it (15,210 rows
// guessed, 1,835 found) and scanned every wide search row instead of the index.
export const freelancerListing: Migration = {
  async up(db, dialect) {
    await sql`update freelancer_profile set listed = 0 where listed = 1 and user_id in (select id from app_user where status <> 'Active')`.execute(
      db,
    )
    if (dialect === 'postgres')
      await sql`create index freelancer_search_head_idx on freelancer_search using gin (ts_filter(document, '{a,b}'))`.execute(
        db,
      )
  },
}
