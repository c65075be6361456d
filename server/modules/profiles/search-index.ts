import { sql, type RawBuilder } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import { fold, searchTokens } from './rules.ts'

// One full-text interface over two engines: SQLite FTS5 (a virtual table whose rowid is the
// freelancer's user id, ranked by bm25) and PostgreSQL (a tsvector per freelancer with a GIN
// index, ranked by ts_rank). Text is folded (lower case, no diacritics) in JS before it is indexed
// and before it is searched, and every word of a query matches as a prefix on both, so the two
// databases find the same freelancers. Title weighs most, then skills, then the overview.
export interface SearchDocument {
  title: string
  overview: string
  skills: string
}

export interface FullTextMatch {
  /**
   * The matching freelancers as rows (user_id, score), a smaller score ranking higher. Callers
   * use it as a MATERIALIZED common table expression, so the engine runs the full-text query once
   * and then joins, whatever order the filters and the sort suggest.
   */
  select: RawBuilder<{ user_id: number; score: number }>
}

export function createSearchIndex(db: DB, dialect: Dialect) {
  async function put(executor: DB, userId: number, doc: SearchDocument) {
    const title = fold(doc.title)
    const overview = fold(doc.overview)
    const skills = fold(doc.skills)
    if (dialect === 'sqlite') {
      await sql`delete from freelancer_search where rowid = ${userId}`.execute(executor)
      await sql`insert into freelancer_search (rowid, title, overview, skills) values (${userId}, ${title}, ${overview}, ${skills})`.execute(executor)
    } else {
      await sql`insert into freelancer_search (user_id, document)
        values (${userId}, setweight(to_tsvector('simple', ${title}), 'A') || setweight(to_tsvector('simple', ${skills}), 'B') || setweight(to_tsvector('simple', ${overview}), 'C'))
        on conflict (user_id) do update set document = excluded.document`.execute(executor)
    }
  }

  async function remove(executor: DB, userId: number) {
    if (dialect === 'sqlite') await sql`delete from freelancer_search where rowid = ${userId}`.execute(executor)
    else await sql`delete from freelancer_search where user_id = ${userId}`.execute(executor)
  }

  /** The match for a term, or null when the term has no words (then nothing is filtered by text). */
  function match(term: string | undefined): FullTextMatch | null {
    const tokens = searchTokens(term)
    if (!tokens.length) return null
    if (dialect === 'sqlite') {
      const query = tokens.map((t) => `"${t}"*`).join(' AND ')
      return { select: sql<{ user_id: number; score: number }>`(select rowid as user_id, bm25(freelancer_search, 10.0, 2.0, 5.0) as score from freelancer_search where freelancer_search match ${query})` }
    }
    const query = tokens.map((t) => `${t}:*`).join(' & ')
    return { select: sql<{ user_id: number; score: number }>`(select user_id, -ts_rank(document, q) as score from freelancer_search, to_tsquery('simple', ${query}) as q where document @@ q)` }
  }

  return { put, remove, match, db }
}

export type SearchIndex = ReturnType<typeof createSearchIndex>
