import { sql } from 'kysely'
import type { Migration } from './helpers.ts'

// `freelancer_profile.listed` now also says the account is active (server/modules/profiles/
// listing.ts, decision 013), so Find Freelancers no longer joins every user to check its status.
// Profiles of accounts that are not active today stop being listed.
export const freelancerListing: Migration = {
  async up(db) {
    await sql`update freelancer_profile set listed = 0 where listed = 1 and user_id in (select id from app_user where status <> 'Active')`.execute(db)
  },
}
