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

/**
 * A query's match, as pieces the search joins into its own SQL: the index is joined as the table
 * `freelancer_search` on `key` = the freelancer's user id and filtered by `where(tier)`; `score`
 * ranks a joined row (smaller first). Only the rows a query returns are scored, so a LIMIT bounds
 * the ranking work however common the words are (ranking every match was what made a search of a
 * common word slow). Tier `head` matches every word in the title or skills, `all` anywhere.
 */
export interface FullTextMatch {
  key: RawBuilder<number>
  where(tier: 'head' | 'all'): RawBuilder<boolean>
  score: RawBuilder<number>
  /** The ids of every match, unranked, for `user_id in (…)` when another column gives the order. */
  ids: RawBuilder<number>
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
      // FTS5 names the table itself as MATCH's left side and bm25's argument, so it is joined unaliased.
      const all = tokens.map((t) => `"${t}"*`).join(' AND ')
      const head = `{title skills}: (${all})`
      return {
        key: sql<number>`freelancer_search.rowid`,
        where: (tier) => sql<boolean>`freelancer_search match ${tier === 'head' ? head : all}`,
        score: sql<number>`bm25(freelancer_search, 10.0, 2.0, 5.0)`,
        ids: sql<number>`(select rowid from freelancer_search where freelancer_search match ${all})`,
      }
    }
    // The head tier keeps the lexemes of weights A (title) and B (skills), as FTS5's column filter
    // does; written as the expression of its own index (migration 0010), which the planner can estimate.
    const all = tokens.map((t) => `${t}:*`).join(' & ')
    return {
      key: sql<number>`freelancer_search.user_id`,
      where: (tier) => tier === 'head'
        ? sql<boolean>`ts_filter(freelancer_search.document, '{a,b}') @@ to_tsquery('simple', ${all})`
        : sql<boolean>`freelancer_search.document @@ to_tsquery('simple', ${all})`,
      score: sql<number>`-ts_rank(freelancer_search.document, to_tsquery('simple', ${all}))`,
      ids: sql<number>`(select user_id from freelancer_search where document @@ to_tsquery('simple', ${all}))`,
    }
  }

  return { put, remove, match, db }
}

export type SearchIndex = ReturnType<typeof createSearchIndex>
