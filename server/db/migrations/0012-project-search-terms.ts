import { sql } from 'kysely'
import type { Migration } from './helpers.ts'
import { rebuildProjectIndex } from './0018-project-index.ts'

// Find Project on PostgreSQL under 30 ms at 100,000 projects (issue 6, decision 060). A search's
// words and filters are answered by one GIN index: `project_term` holds, per open project, the
// text's lexemes (no positions, no weights: ~1 KB) and the facet tokens (marked with "~", which a
// word never contains) in one tsvector, uncompressed (storage external) so checking a row without
// the index reads it directly. fastupdate is off so a search never scans a pending list of recent
// writes (a write pays its GIN update at once instead). project_search keeps the weighted
// document for ts_rank only (its facets column and index are no longer used); project_facet still
// answers searches without words. SQLite is unchanged (FTS5 already answers in one index).
export const projectSearchTerms: Migration = {
  async up(db, dialect) {
    if (dialect !== 'postgres') return
    await sql`create table project_term (project_id integer primary key references project(id) on delete cascade, terms tsvector not null)`.execute(
      db,
    )
    await sql`alter table project_term alter column terms set storage external`.execute(db)
    await sql`create index project_term_terms_idx on project_term using gin (terms) with (fastupdate = off)`.execute(
      db,
    )
    // Every lexeme ever indexed (C collation: a prefix is a btree range), so a search word's prefix
    // becomes the few whole lexemes it stands for, which GIN intersects by skipping instead of
    // first reading every posting of the prefix. Never pruned: a stale lexeme only matches nothing.
    await sql`create table project_lexeme (lexeme text collate "C" primary key)`.execute(db)
    await sql`drop index project_search_facets_idx`.execute(db)
    await sql`alter table project_search drop column facets`.execute(db)
    await rebuildProjectIndex(db, dialect)
    // Statistics now, so the first searches are planned on the real table rather than an empty one.
    await sql`analyze project_term`.execute(db)
    await sql`analyze project_lexeme`.execute(db)
  },
}
