import { sql } from 'kysely'
import type { Migration } from './helpers.ts'
import { copyFreelancerTerms } from './0016-freelancer-facets.ts'

// Find Freelancers on SQLite (issue 5, decision 013): the FTS5 row gets a `facets` column holding
// the profile's facet tokens (category, subcategories, skills, languages, country, level,
// availability, currency), so a search's words and those filters are one FTS5 query that
// intersects doclists, instead of a lookup of the profile row for every match of a common word.
// FTS5 tables cannot add a column: the table is made anew and its rows copied. PostgreSQL keeps
// its facets in the profile row's lexemes (migration 0014).
export const freelancerSearchFacets: Migration = {
  async up(db, dialect) {
    if (dialect !== 'sqlite') return
    await sql`create virtual table freelancer_search_next using fts5(title, overview, skills, facets, tokenize = 'unicode61 remove_diacritics 2')`.execute(
      db,
    )
    await sql`insert into freelancer_search_next (rowid, title, overview, skills) select rowid, title, overview, skills from freelancer_search`.execute(
      db,
    )
    await sql`drop table freelancer_search`.execute(db)
    await sql`alter table freelancer_search_next rename to freelancer_search`.execute(db)
    await copyFreelancerTerms(db, dialect)
  },
}
