import { sql } from 'kysely'
import type { Migration } from './helpers.ts'
import { rebuildProjectIndex } from './0018-project-index.ts'

// Find Project at 100,000 projects (issue 6, decision 060): the project full-text index also
// carries each project's filters as facet tokens, in a column of their own, so a filtered search
// is answered inside the index. SQLite: a fourth FTS5 column (a virtual table cannot gain one, so
// it is made again). PostgreSQL: a `facets` tsvector next to the text document, with its own GIN
// index, and the same facets again in a narrow table of their own (project_facet), so a search
// without words scans small rows instead of the wide text rows. The index is then written again
// from the project table (it holds derived data only).
export const projectSearchFacets: Migration = {
  async up(db, dialect) {
    if (dialect === 'sqlite') {
      await sql`drop table project_search`.execute(db)
      await sql`create virtual table project_search using fts5(title, description, skills, facets, tokenize = 'unicode61 remove_diacritics 2')`.execute(
        db,
      )
    } else {
      await sql`alter table project_search add column facets tsvector not null default ''`.execute(db)
      await sql`create index project_search_facets_idx on project_search using gin (facets)`.execute(db)
      await sql`create table project_facet (project_id integer primary key references project(id) on delete cascade, facets tsvector not null)`.execute(
        db,
      )
      await sql`create index project_facet_facets_idx on project_facet using gin (facets)`.execute(db)
    }
    // The window of matches is joined to project for the exact budget and date bounds and the sort
    // keys: a covering index answers that without reading the wide project rows.
    if (dialect === 'postgres')
      await sql`create index project_search_keys_idx on project (id) include (status, published_at, budget_minor, proposal_count)`.execute(
        db,
      )
    else
      await sql`create index project_search_keys_idx on project (id, status, published_at, budget_minor, proposal_count)`.execute(
        db,
      )
    await rebuildProjectIndex(db, dialect)
  },
}
