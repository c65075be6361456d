import { sql, type Kysely } from 'kysely'
import type { Dialect, Migration } from './helpers.ts'
import { copyFreelancerTerms } from './0016-freelancer-facets.ts'

// Find Freelancers finds a freelancer by name (issue 15, decision 125): each search document gains
// the account's first and last name, folded as the profiles module folds every indexed text. On
// SQLite the FTS5 table gets a `name` column (FTS5 tables cannot add one: it is made anew and its
// rows copied, as 0015 did); on PostgreSQL the name is the document's weight D, so it is in the
// profile's `terms` and not in its `head` (title and skills). The names' lexemes join
// freelancer_lexeme. Frozen (decision 100): the fold and the statements are this date's, and the
// facet tokens are still those of 0016-freelancer-facets.ts.

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
const BATCH = 1000

/** The folded name of every freelancer with a search document, into the temporary table freelancer_name. */
async function foldNames(db: Kysely<any>, dialect: Dialect) {
  const key = dialect === 'sqlite' ? sql.raw('s.rowid') : sql.raw('s.user_id')
  for (let after = 0; ;) {
    const rows = (
      await sql<{
        id: number
        first_name: string | null
        last_name: string | null
      }>`select ${key} as id, u.first_name, u.last_name from freelancer_search s left join app_user u on u.id = ${key}
        where ${key} > ${after} order by ${key} limit ${BATCH}`.execute(db)
    ).rows
    if (!rows.length) return
    const values = rows.map(
      (r) => sql`(${Number(r.id)}, ${fold(`${r.first_name ?? ''} ${r.last_name ?? ''}`.trim())})`,
    )
    await sql`insert into freelancer_name (user_id, name) values ${sql.join(values)}`.execute(db)
    after = Number(rows.at(-1)!.id)
  }
}

export const freelancerNames: Migration = {
  async up(db, dialect) {
    if (dialect === 'sqlite') {
      await sql`create temp table freelancer_name (user_id integer primary key, name text not null)`.execute(
        db,
      )
      await foldNames(db, dialect)
      await sql`create virtual table freelancer_search_next using fts5(title, overview, skills, facets, name, tokenize = 'unicode61 remove_diacritics 2')`.execute(
        db,
      )
      await sql`insert into freelancer_search_next (rowid, title, overview, skills, facets, name)
        select s.rowid, s.title, s.overview, s.skills, s.facets, coalesce(n.name, '') from freelancer_search s left join temp.freelancer_name n on n.user_id = s.rowid`.execute(
        db,
      )
      await sql`drop table freelancer_search`.execute(db)
      await sql`alter table freelancer_search_next rename to freelancer_search`.execute(db)
      await sql`drop table temp.freelancer_name`.execute(db)
      await sql`insert into freelancer_search (freelancer_search) values ('optimize')`.execute(db)
      return
    }
    await sql`create temp table freelancer_name (user_id integer primary key, name text not null)`.execute(db)
    await foldNames(db, dialect)
    await sql`update freelancer_search fs set document = fs.document || setweight(to_tsvector('simple', n.name), 'D') from freelancer_name n where n.user_id = fs.user_id and n.name <> ''`.execute(
      db,
    )
    await copyFreelancerTerms(db, dialect)
    await sql`insert into "freelancer_lexeme" (lexeme) select distinct unnest(tsvector_to_array(to_tsvector('simple', n.name))) from freelancer_name n on conflict do nothing`.execute(
      db,
    )
    await sql`drop table freelancer_name`.execute(db)
    await sql`analyze freelancer_lexeme`.execute(db)
  },
}
