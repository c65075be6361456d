import { sql, type RawBuilder } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import { fold, searchTokens } from './rules.ts'
import { bucketsOf, type BucketColumn } from './sort-buckets.ts'
import { keepLexemes, wholeWords } from '#server/db/whole-words.ts'

// One full-text interface over two engines: SQLite FTS5 (a virtual table whose rowid is the
// freelancer's user id, ranked by bm25) and PostgreSQL (a tsvector per freelancer with a GIN
// index, ranked by ts_rank). Text is folded (lower case, no diacritics) in JS before it is indexed
// and before it is searched, and every word of a query matches as a prefix on both, so the two
// databases find the same freelancers. Title weighs most, then skills, then the overview, then the
// freelancer's name (a client looking for someone by name finds them; a trade word that is also a
// name still ranks the trade's freelancers first, decision 125).
export interface SearchDocument {
  title: string
  overview: string
  skills: string
  /** First and last name, as the account has them. */
  name: string
}

/** The profiles, as `fp`, that a search's filters narrow. */
const profiles = (db: DB) => db.selectFrom('freelancer_profile as fp')
export type ProfilesQuery = ReturnType<typeof profiles>

/**
 * A query's match, as pieces the search builds its own SQL on: `from(tier)` is the profiles (as
 * `fp`) whose text matches, for the filters to narrow; `score` ranks one of them (smaller first).
 * Only the rows a query returns are scored, so a LIMIT bounds the ranking work however common the
 * words are (ranking every match was what made a search of a common word slow). Tier `head`
 * matches every word in the title or skills, `all` anywhere.
 */
export interface FullTextMatch {
  /**
   * `executor`: the connection of `withIndexScans`, when the query runs inside it. `within`: only
   * the profiles in these buckets of a sort column (sort-buckets.ts).
   */
  from(tier: 'head' | 'all', executor?: DB, within?: SortBuckets): ProfilesQuery
  /** True when `from` already answers the facet filters (PostgreSQL), so the search adds only the others. */
  answersFacets: boolean
  score: RawBuilder<number>
  /** The ids of every match (words and facets), unranked, for `user_id in (…)` when another column gives the order. */
  ids: RawBuilder<number>
}

/** Some buckets of one sort column, as the facet tokens of the index hold them. */
export interface SortBuckets {
  column: BucketColumn
  buckets: string[]
}

/** The filters PostgreSQL answers from the profile's lexemes, as facet tokens. */
export interface FacetFilter {
  categoryId?: number
  subcategoryId?: number
  skills?: number[]
  language?: string
  country?: string
  experienceLevel?: string
  availability?: string
  currency?: string
}

// A search's facet filters as [filter, value] pairs; each engine writes them as its own tokens.
function facetPairs(f: FacetFilter): Array<[string, string | number]> {
  const pairs: Array<[string, string | number | undefined]> = [
    ['cat', f.categoryId],
    ['sub', f.subcategoryId],
    ...[...new Set(f.skills ?? [])].map((id): [string, number] => ['sk', id]),
    ['lang', f.language],
    ['c', f.country],
    ['lvl', f.experienceLevel],
    ['av', f.availability],
    ['cur', f.currency],
  ]
  return pairs.filter((p): p is [string, string | number] => p[1] !== undefined && p[1] !== '')
}

// PostgreSQL: facet tokens share the tsvector with the words, so they are marked with "~" (a
// search word is letters and digits only) and name their filter before a dot: ~c.ES, ~sk.37.
// Quoted tsquery literals; the values are ids and catalogue codes checked by the API's schema.
const pgFacetQuery = (f: FacetFilter) =>
  facetPairs(f).map(([name, value]) => `'~${name}.${String(value).replace(/['\\]/g, '')}'`)
// A sort column's bucket tokens (sort-buckets.ts): ~rt.18 on PostgreSQL, frt18 on SQLite.
const bucketToken: Record<BucketColumn, string> = {
  rating: 'rt',
  rate: 'rate',
  experience: 'exp',
  joined: 'joined',
}
const bucketColumns = Object.keys(bucketToken) as BucketColumn[]
const pgBuckets = bucketsOf('postgres')
const pgFacetsOf = sql`array_to_tsvector(array_remove(array['~cat.' || fp.category_id, '~c.' || fp.country, '~lvl.' || fp.experience_level, '~av.' || fp.availability, '~cur.' || fp.currency,
    ${sql.join(bucketColumns.map((c) => sql`${`~${bucketToken[c]}.`} || ${pgBuckets[c]}`))}], null)
  || coalesce((select array_agg('~sub.' || x.subcategory_id) from freelancer_subcategory x where x.user_id = fp.user_id), '{}')
  || coalesce((select array_agg('~sk.' || x.skill_id) from freelancer_skill x where x.user_id = fp.user_id), '{}')
  || coalesce((select array_agg('~lang.' || x.language_code) from freelancer_language x where x.user_id = fp.user_id), '{}'))`

// SQLite: facet tokens have their own FTS5 column (migration 0015), as single words the tokenizer
// keeps whole: the filter's name, then the value's letters and digits (fav + full-time: favfulltime).
const sqliteFacetQuery = (f: FacetFilter) =>
  facetPairs(f).map(
    ([name, value]) =>
      `"f${name}${String(value)
        .replace(/[^\p{L}\p{N}]/gu, '')
        .toLowerCase()}"`,
  )
const sqliteBuckets = bucketsOf('sqlite')
const sqliteFacetsOf = sql`(select trim(coalesce(' fcat' || fp.category_id, '') || coalesce(' fc' || fp.country, '') || coalesce(' flvl' || fp.experience_level, '')
  || coalesce(' fav' || replace(fp.availability, '-', ''), '') || coalesce(' fcur' || fp.currency, '')
  || ${sql.join(
    bucketColumns.map((c) => sql`coalesce(${` f${bucketToken[c]}`} || ${sqliteBuckets[c]}, '')`),
    sql` || `,
  )}
  || coalesce((select ' ' || group_concat('fsub' || x.subcategory_id, ' ') from freelancer_subcategory x where x.user_id = fp.user_id), '')
  || coalesce((select ' ' || group_concat('fsk' || x.skill_id, ' ') from freelancer_skill x where x.user_id = fp.user_id), '')
  || coalesce((select ' ' || group_concat('flang' || x.language_code, ' ') from freelancer_language x where x.user_id = fp.user_id), ''))
  from freelancer_profile fp where fp.user_id = freelancer_search.rowid)`

/** Writes a freelancer's search document, then the facet tokens that sit beside its words. */
async function putDocument(dialect: Dialect, executor: DB, userId: number, doc: SearchDocument) {
  const title = fold(doc.title)
  const overview = fold(doc.overview)
  const skills = fold(doc.skills)
  const name = fold(doc.name)
  if (dialect === 'sqlite') {
    await sql`delete from freelancer_search where rowid = ${userId}`.execute(executor)
    await sql`insert into freelancer_search (rowid, title, overview, skills, name) values (${userId}, ${title}, ${overview}, ${skills}, ${name})`.execute(
      executor,
    )
  } else {
    // The name is weight D: in `terms` (every word), not in `head` (title and skills, A and B).
    await sql`insert into freelancer_search (user_id, document)
      values (${userId}, setweight(to_tsvector('simple', ${title}), 'A') || setweight(to_tsvector('simple', ${skills}), 'B') || setweight(to_tsvector('simple', ${overview}), 'C') || setweight(to_tsvector('simple', ${name}), 'D'))
      on conflict (user_id) do update set document = excluded.document`.execute(executor)
    await keepLexemes(
      executor,
      'freelancer_lexeme',
      sql`select document from freelancer_search where user_id = ${userId}`,
    )
  }
  await copyTerms(dialect, executor, userId)
}

/**
 * The facet tokens of a profile (of every profile without `userId`): on PostgreSQL with the
 * profile row's own lexemes from its weighted document (migration 0014), on SQLite in the FTS5
 * row's `facets` column (migration 0015). Every change to a freelancer profile calls it, since the
 * facets follow the profile's columns, subcategories, skills and languages.
 */
async function copyTerms(dialect: Dialect, executor: DB, userId?: number) {
  if (dialect === 'sqlite') {
    await sql`update freelancer_search set facets = ${sqliteFacetsOf} ${userId === undefined ? sql`` : sql`where rowid = ${userId}`}`.execute(
      executor,
    )
    return
  }
  // The facets once per profile (a CTE: an UPDATE cannot read its own row in a LATERAL join).
  await sql`with f as (select fp.user_id, ${pgFacetsOf} as facets from freelancer_profile fp ${userId === undefined ? sql`` : sql`where fp.user_id = ${userId}`})
    update freelancer_profile p set terms = strip(fs.document) || f.facets, head = strip(ts_filter(fs.document, '{a,b}')) || f.facets
    from f join freelancer_search fs on fs.user_id = f.user_id where p.user_id = f.user_id`.execute(executor)
}

async function removeDocument(dialect: Dialect, executor: DB, userId: number) {
  if (dialect === 'sqlite') {
    await sql`delete from freelancer_search where rowid = ${userId}`.execute(executor)
    return
  }
  await sql`delete from freelancer_search where user_id = ${userId}`.execute(executor)
  await sql`update freelancer_profile set terms = null, head = null where user_id = ${userId}`.execute(
    executor,
  )
}

/** SQLite's match: FTS5 with a column for the facet tokens, which names the table itself as MATCH's left side and bm25's argument, so it is joined unaliased. */
function sqliteMatch(db: DB, tokens: string[], facets: FacetFilter): FullTextMatch {
  const all = tokens.map((t) => `"${t}"*`).join(' AND ')
  // Every facet token starts with "f", so a word that does too is asked of the text columns only
  // (fc would otherwise match fces); the column filter makes a common word slower, so only then.
  const words = tokens.some((t) => t.startsWith('f')) ? `{title overview skills name}: (${all})` : `(${all})`
  const facetTokens = sqliteFacetQuery(facets)
  const withFacets = (words: string, within?: SortBuckets) => {
    const asked = [
      ...facetTokens,
      ...(within
        ? [`(${within.buckets.map((b) => `"f${bucketToken[within.column]}${b}"`).join(' OR ')})`]
        : []),
    ]
    return asked.length ? `${words} AND facets : (${asked.join(' AND ')})` : words
  }
  // The index is the outer loop (CROSS JOIN fixes SQLite's join order): FTS5 asked for one rowid
  // at a time reads whole doclists, which made a query the planner drove from a filter's index slow.
  return {
    from: (tier, executor = db, within) =>
      (
        executor
          .selectFrom(sql`freelancer_search`.as('freelancer_search') as never)
          .crossJoin('freelancer_profile as fp') as unknown as ProfilesQuery
      )
        .where(sql<boolean>`freelancer_search.rowid = fp.user_id`)
        .where(
          sql<boolean>`freelancer_search match ${withFacets(tier === 'head' ? `{title skills}: (${all})` : words, within)}`,
        ),
    answersFacets: true,
    // Title, overview, skills, facets, name: the name weighs a tenth of the title, as
    // PostgreSQL's ts_rank weighs D against A.
    score: sql<number>`bm25(freelancer_search, 10.0, 2.0, 5.0, 0.0, 1.0)`,
    ids: sql<number>`(select rowid from freelancer_search where freelancer_search match ${withFacets(words)})`,
  }
}

/**
 * PostgreSQL's match: the profile row's own lexemes answer it (migration 0014), and `head` keeps
 * those of the title and skills, as FTS5's column filter does. Only a returned row reads its
 * weighted document, to be ranked. The words, as the whole lexemes they stand for
 * (whole-words.ts), and the facets are one query of one GIN index, which intersects them.
 */
async function postgresMatch(db: DB, tokens: string[], facets: FacetFilter): Promise<FullTextMatch> {
  const all = tokens.map((t) => `${t}:*`).join(' & ')
  const words = await wholeWords(db, 'freelancer_lexeme', tokens)
  const marked = pgFacetQuery(facets)
  const asked = (within?: SortBuckets) => {
    // A word no lexeme starts with: the query asks for a lexeme nobody has, so nothing matches.
    const parts = [
      ...(words ?? ["'~none'"]),
      ...marked,
      ...(within
        ? [`(${within.buckets.map((b) => `'~${bucketToken[within.column]}.${b}'`).join(' | ')})`]
        : []),
    ]
    return sql`${parts.join(' & ')}::tsquery`
  }
  return {
    from: (tier, executor = db, within) =>
      profiles(executor).where(
        tier === 'head'
          ? sql<boolean>`fp.head @@ ${asked(within)}`
          : sql<boolean>`fp.terms @@ ${asked(within)}`,
      ),
    answersFacets: true,
    score: sql<number>`(select -ts_rank(fs.document, to_tsquery('simple', ${all})) from freelancer_search fs where fs.user_id = fp.user_id)`,
    ids: sql<number>`(select user_id from freelancer_profile where terms @@ ${asked()})`,
  }
}

/**
 * Runs a search's text queries so PostgreSQL answers their words from the GIN indexes. Asked for
 * the first 1,001 matches, the planner prefers scanning profiles and checking each row's lexemes
 * (it expects to stop early), but those lexemes live out of line, so a rare word with a filter
 * read every row's; with sequential scans off for these queries on one connection it takes the
 * bitmap of the index instead.
 */
async function withIndexScans<T>(db: DB, dialect: Dialect, run: (executor: DB) => Promise<T>): Promise<T> {
  if (dialect === 'sqlite') return run(db)
  return db.connection().execute(async (connection) => {
    await sql`set enable_seqscan = off`.execute(connection)
    try {
      return await run(connection)
    } finally {
      await sql`reset enable_seqscan`.execute(connection)
    }
  })
}

/** The full-text index of one database, its functions bound to it. */
export function createSearchIndex(db: DB, dialect: Dialect) {
  return {
    put: (executor: DB, userId: number, doc: SearchDocument) => putDocument(dialect, executor, userId, doc),
    remove: (executor: DB, userId: number) => removeDocument(dialect, executor, userId),
    /** The match for a term, or null when the term has no words (then nothing is filtered by text). */
    async match(term: string | undefined, facets: FacetFilter = {}): Promise<FullTextMatch | null> {
      const tokens = searchTokens(term)
      if (!tokens.length) return null
      return dialect === 'sqlite' ? sqliteMatch(db, tokens, facets) : postgresMatch(db, tokens, facets)
    },
    copyTerms: (executor: DB, userId?: number) => copyTerms(dialect, executor, userId),
    /** Every lexeme of every search document into freelancer_lexeme (PostgreSQL; migrations and seeds). */
    async keepAllLexemes(executor: DB) {
      if (dialect === 'postgres')
        await keepLexemes(executor, 'freelancer_lexeme', sql`select document from freelancer_search`)
    },
    withIndexScans: <T>(run: (executor: DB) => Promise<T>) => withIndexScans(db, dialect, run),
  }
}

export type SearchIndex = ReturnType<typeof createSearchIndex>
