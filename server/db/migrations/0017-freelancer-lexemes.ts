import { sql } from 'kysely'
import type { Migration } from './helpers.ts'

// Find Freelancers on PostgreSQL (issue 5, decision 013): every lexeme of the freelancers' search
// documents, so a search word becomes the whole lexemes it is a prefix of and GIN skips through a
// common word's postings instead of reading them all first (server/db/whole-words.ts, as Find
// Project does with project_lexeme). SQLite's FTS5 needs nothing of the kind.
export const freelancerLexemes: Migration = {
  async up(db, dialect) {
    if (dialect !== 'postgres') return
    await sql`create table freelancer_lexeme (lexeme text collate "C" primary key)`.execute(db)
    await sql`insert into "freelancer_lexeme" (lexeme) select distinct unnest(tsvector_to_array(strip(d.document))) from (select document from freelancer_search) d on conflict do nothing`.execute(
      db,
    )
    await sql`analyze freelancer_lexeme`.execute(db)
  },
}
