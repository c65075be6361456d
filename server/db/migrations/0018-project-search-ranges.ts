import { sql } from 'kysely'
import type { Migration } from './helpers.ts'
import { rebuildProjectIndex } from './0018-project-index.ts'

// Find Project (issue 6, decision 060): the index is written again with its new tokens. A budget
// bound is one token ("at least", "below") instead of an OR of buckets, days come in periods of
// eight as well, and on PostgreSQL each project's terms carry its block of ids, so a rare
// combination is asked among the newest blocks first. PostgreSQL's GIN index is made again after
// the rows rather than kept through them (fastupdate is off: each row's ~100 lexemes would go in
// one by one).
export const projectSearchRanges: Migration = {
  async up(db, dialect) {
    if (dialect === 'postgres') await sql`drop index project_term_terms_idx`.execute(db)
    await rebuildProjectIndex(db, dialect)
    if (dialect !== 'postgres') return
    await sql`create index project_term_terms_idx on project_term using gin (terms) with (fastupdate = off)`.execute(
      db,
    )
    await sql`analyze project_term`.execute(db)
  },
}
