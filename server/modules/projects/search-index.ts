import { sql, type AliasedRawBuilder } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import { fold, searchTokens } from './rules.ts'

// The project full-text index, in the shape of the profiles module's freelancer index: SQLite FTS5
// (a virtual table whose rowid is the project id, ranked by bm25) and PostgreSQL (a tsvector per
// project with a GIN index, ranked by ts_rank). Text is folded (lower case, no diacritics) in JS
// before it is indexed and searched, every word of a query matches as a prefix, so both databases
// find the same projects. Only open projects are in the index: a project leaves it when it leaves
// open, which keeps Find Project's candidate set small.
export interface ProjectDocument {
  title: string
  description: string
  skills: string
}

export function createProjectSearchIndex(dialect: Dialect) {
  async function put(executor: DB, projectId: number, doc: ProjectDocument) {
    const title = fold(doc.title)
    const description = fold(doc.description)
    const skills = fold(doc.skills)
    if (dialect === 'sqlite') {
      await sql`delete from project_search where rowid = ${projectId}`.execute(executor)
      await sql`insert into project_search (rowid, title, description, skills) values (${projectId}, ${title}, ${description}, ${skills})`.execute(executor)
    } else {
      await sql`insert into project_search (project_id, document)
        values (${projectId}, setweight(to_tsvector('simple', ${title}), 'A') || setweight(to_tsvector('simple', ${skills}), 'B') || setweight(to_tsvector('simple', ${description}), 'C'))
        on conflict (project_id) do update set document = excluded.document`.execute(executor)
    }
  }

  async function remove(executor: DB, projectId: number) {
    if (dialect === 'sqlite') await sql`delete from project_search where rowid = ${projectId}`.execute(executor)
    else await sql`delete from project_search where project_id = ${projectId}`.execute(executor)
  }

  /** The matching projects as `m(project_id, score)` (a smaller score ranks higher), or null when the term has no words. */
  function match(term: string | undefined): AliasedRawBuilder<{ project_id: number; score: number }, 'm'> | null {
    const tokens = searchTokens(term)
    if (!tokens.length) return null
    if (dialect === 'sqlite') {
      const query = tokens.map((t) => `"${t}"*`).join(' AND ')
      return sql<{ project_id: number; score: number }>`(select rowid as project_id, bm25(project_search, 10.0, 1.0, 4.0) as score from project_search where project_search match ${query})`.as('m')
    }
    const query = tokens.map((t) => `${t}:*`).join(' & ')
    return sql<{ project_id: number; score: number }>`(select project_id, -ts_rank(document, q) as score from project_search, to_tsquery('simple', ${query}) as q where document @@ q)`.as('m')
  }

  /** The ids of matching projects, for `p.id in (…)` when the order comes from the project table (newest, budget). */
  function ids(term: string | undefined) {
    const tokens = searchTokens(term)
    if (!tokens.length) return null
    if (dialect === 'sqlite') return sql<number>`(select rowid from project_search where project_search match ${tokens.map((t) => `"${t}"*`).join(' AND ')})`
    return sql<number>`(select project_id from project_search where document @@ to_tsquery('simple', ${tokens.map((t) => `${t}:*`).join(' & ')}))`
  }

  return { put, remove, match, ids }
}

export type ProjectSearchIndex = ReturnType<typeof createProjectSearchIndex>
