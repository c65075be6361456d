import { sql } from 'kysely'
import type { DB } from './database.ts'

// PostgreSQL full text: a search word matches as a prefix ('concrete':*), and GIN answers a prefix
// by reading every posting of every lexeme it starts first, whatever else the query asks. Turned
// into the few whole lexemes it stands for ('concrete' | 'concretes'), GIN intersects by skipping
// from the rarest entry instead (Find Project: 13.7 -> 1.95 ms for a common word with filters,
// decision 060). A lexeme table holds every lexeme ever indexed (C collation, so a prefix is a
// btree range); it is never pruned, since a stale lexeme only matches nothing.

/** A word standing for more lexemes than this stays a prefix in the index query. */
export const WHOLE_WORDS = 32

export type LexemeTable = 'project_lexeme' | 'freelancer_lexeme'

/** A tsquery literal of one lexeme. */
export const quoteLexeme = (lexeme: string) => `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`

/**
 * Each word's tsquery part: its whole lexemes `('a' | 'ab')`, or the prefix `'word':*` when it
 * stands for more than WHOLE_WORDS; null when some word matches no lexeme (nothing can match).
 */
export async function wholeWords(
  executor: DB,
  table: LexemeTable,
  words: string[],
): Promise<string[] | null> {
  const parts: string[] = []
  for (const word of words) {
    const found = await sql<{
      lexeme: string
    }>`select lexeme from ${sql.table(table)} where lexeme >= ${word} and lexeme < ${word + '\u{10FFFF}'} order by lexeme limit ${WHOLE_WORDS + 1}`.execute(
      executor,
    )
    if (!found.rows.length) return null
    parts.push(
      found.rows.length > WHOLE_WORDS
        ? `${quoteLexeme(word)}:*`
        : `(${found.rows.map((r) => quoteLexeme(r.lexeme)).join(' | ')})`,
    )
  }
  return parts
}

/** Adds the lexemes of these documents (a select of one tsvector column `document`) to the table. */
export async function keepLexemes(executor: DB, table: LexemeTable, documents: ReturnType<typeof sql>) {
  await sql`insert into ${sql.table(table)} (lexeme) select distinct unnest(tsvector_to_array(strip(d.document))) from (${documents}) d on conflict do nothing`.execute(
    executor,
  )
}
