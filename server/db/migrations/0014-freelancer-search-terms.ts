import { sql } from 'kysely'
import type { Migration } from './helpers.ts'
import { copyFreelancerTerms } from './0016-freelancer-facets.ts'

// Find Freelancers on PostgreSQL under 30 ms at 50,000 freelancers (issue 5, decision 013). The
// profile row itself carries the text's lexemes, stripped (no positions, no weights): `terms` of
// the title, skills and overview, `head` of the title and skills alone, each with the profile's
// facet tokens (category, subcategories, skills, languages, country, level, availability,
// currency, marked "~"), so the words and those filters are one GIN query. Both are kept out of line
// (storage external, toast_tuple_target 128), so a profile row stays narrow for the filters and the
// sorts, and each has a GIN index (fastupdate off: a search never scans a pending list). A search's
// words and filters are then answered on this one table: a bitmap of the GIN index and the filter
// indexes, or a scan that stops at the cap, never the wide weighted documents of freelancer_search,
// which is kept for ts_rank of the rows a search returns. SQLite is unchanged (FTS5).
export const freelancerSearchTerms: Migration = {
  async up(db, dialect) {
    if (dialect !== 'postgres') return
    await sql`alter table freelancer_profile add column terms tsvector, add column head tsvector`.execute(db)
    await sql`alter table freelancer_profile alter column terms set storage external, alter column head set storage external`.execute(
      db,
    )
    await sql`alter table freelancer_profile set (toast_tuple_target = 128)`.execute(db)
    await copyFreelancerTerms(db, dialect)
    await sql`create index freelancer_profile_terms_idx on freelancer_profile using gin (terms) with (fastupdate = off)`.execute(
      db,
    )
    await sql`create index freelancer_profile_head_idx on freelancer_profile using gin (head) with (fastupdate = off)`.execute(
      db,
    )
    await sql`drop index if exists freelancer_search_head_idx`.execute(db)
    await sql`analyze freelancer_profile`.execute(db)
  },
}
