import { sql, type Kysely } from 'kysely'
import type { Dialect } from './helpers.ts'

// Frozen: the project full-text index as migration 0018 writes it (issue 6, decision 060), copied
// from server/modules/projects/search-index.ts on 2026-11-23 (commit 4bd45a8) so that what the
// migrations do never follows that module again (decision 100). Migrations 0009 and 0012 run
// this same rebuild: 0018 writes every row again, so a database of any release ends with these
// rows. Never edit it; a new index format is a new migration with its own frozen copy.

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()

const DAY = 86_400_000
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '')
const PERIOD_BITS = 3
const budgetBucket = (minor: number) => Math.floor(Math.log2(Math.max(1, minor)))
const LOW_BUCKET = 10
const HIGH_BUCKET = 30
const FACET = '~'
const BLOCK_BITS = 12
const blockFacet = (block: number) => `w${block}`

interface FacetSource {
  category_id: number | null
  subcategory_id: number | null
  budget_type: string
  budget_minor: number
  experience_level: string | null
  country: string | null
  currency: string
  remote: number
  published_at: string | null
}

function facetTokens(p: FacetSource, skillIds: readonly number[]) {
  const tokens = ['open', `t${p.budget_type}`, `m${p.currency.toLowerCase()}`, `r${p.remote ? 1 : 0}`]
  const bucket = budgetBucket(p.budget_minor)
  for (let k = LOW_BUCKET; k <= Math.min(bucket, HIGH_BUCKET); k++) tokens.push(`a${k}`)
  for (let k = Math.max(bucket, LOW_BUCKET); k <= HIGH_BUCKET; k++) tokens.push(`u${k}`)
  if (p.category_id) tokens.push(`c${p.category_id}`)
  if (p.subcategory_id) tokens.push(`s${p.subcategory_id}`)
  if (p.experience_level) tokens.push(`l${p.experience_level}`)
  if (p.country) tokens.push(`n${p.country.toLowerCase()}`)
  if (p.published_at) {
    const published = Date.parse(p.published_at)
    tokens.push(`d${day(published)}`, `e${Math.floor(published / DAY) >> PERIOD_BITS}`)
  }
  for (const id of skillIds) tokens.push(`k${id}`)
  return tokens
}

type Entry = { id: number; doc: { title: string; description: string; skills: string }; facets: string[] }

async function write(db: Kysely<any>, dialect: Dialect, entries: Entry[], terms: boolean) {
  if (!entries.length) return
  const ids = entries.map((e) => e.id)
  if (dialect === 'sqlite') {
    await sql`delete from project_search where rowid in (${sql.join(ids)})`.execute(db)
    const values = entries.map(
      (e) =>
        sql`(${e.id}, ${fold(e.doc.title)}, ${fold(e.doc.description)}, ${fold(e.doc.skills)}, ${e.facets.join(' ')})`,
    )
    await sql`insert into project_search (rowid, title, description, skills, facets) values ${sql.join(values)}`.execute(
      db,
    )
    return
  }
  const values = entries.map(
    (e) =>
      sql`(${e.id}, setweight(to_tsvector('simple', ${fold(e.doc.title)}), 'A') || setweight(to_tsvector('simple', ${fold(e.doc.skills)}), 'B') || setweight(to_tsvector('simple', ${fold(e.doc.description)}), 'C'))`,
  )
  await sql`insert into project_search (project_id, document) values ${sql.join(values)} on conflict (project_id) do update set document = excluded.document`.execute(
    db,
  )
  const facets = entries.map((e) => sql`(${e.id}, array_to_tsvector(${e.facets}::text[]))`)
  await sql`insert into project_facet (project_id, facets) values ${sql.join(facets)} on conflict (project_id) do update set facets = excluded.facets`.execute(
    db,
  )
  if (!terms) return
  const marked = entries.map(
    (e) =>
      sql`(${e.id}::integer, ${[...e.facets, blockFacet(e.id >> BLOCK_BITS)].map((f) => FACET + f).join(' ')}::text)`,
  )
  await sql`insert into project_term (project_id, terms) select s.project_id, strip(s.document) || array_to_tsvector(string_to_array(v.facets, ' ')) from (values ${sql.join(marked)}) v(project_id, facets) join project_search s on s.project_id = v.project_id on conflict (project_id) do update set terms = excluded.terms`.execute(
    db,
  )
  await sql`insert into "project_lexeme" (lexeme) select distinct unnest(tsvector_to_array(strip(d.document))) from (select document from project_search where project_id in (${sql.join(ids)})) d on conflict do nothing`.execute(
    db,
  )
}

const facetColumns = [
  'category_id',
  'subcategory_id',
  'budget_type',
  'budget_minor',
  'experience_level',
  'country',
  'currency',
  'remote',
  'published_at',
] as const

/** Writes the project index again from the open projects, 500 at a time. */
export async function rebuildProjectIndex(db: Kysely<any>, dialect: Dialect) {
  await sql`delete from project_search`.execute(db)
  // Migration 0009 runs this before 0012 has made project_term: the document alone then.
  const terms =
    dialect === 'postgres' &&
    (await sql<{ t: string | null }>`select to_regclass('project_term')::text as t`.execute(db)).rows[0]?.t !=
      null
  if (dialect === 'postgres') await sql`delete from project_facet`.execute(db)
  if (terms) await sql`delete from project_term`.execute(db)
  for (let after = 0; ;) {
    const rows: Array<FacetSource & { id: number; title: string; description: string }> = await db
      .selectFrom('project')
      .select(['id', 'title', 'description', ...facetColumns])
      .where('status', '=', 'open')
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute()
    if (!rows.length) break
    after = rows.at(-1)!.id
    const skills: Array<{
      project_id: number
      skill_id: number
      name_en: string
      name_es: string
      name_de: string
      name_it: string
      name_ru: string
    }> = await db
      .selectFrom('project_skill as ps')
      .innerJoin('skill as s', 's.id', 'ps.skill_id')
      .select([
        'ps.project_id',
        'ps.skill_id',
        's.name_en',
        's.name_es',
        's.name_de',
        's.name_it',
        's.name_ru',
      ])
      .where(
        'ps.project_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute()
    const of = Map.groupBy(skills, (s) => s.project_id)
    await write(
      db,
      dialect,
      rows.map((r) => {
        const own = of.get(r.id) ?? []
        const names = [
          ...new Set(own.flatMap((s) => [s.name_en, s.name_es, s.name_de, s.name_it, s.name_ru])),
        ].join(' ')
        return {
          id: r.id,
          doc: { title: r.title, description: r.description, skills: names },
          facets: facetTokens(
            r,
            own.map((s) => s.skill_id),
          ),
        }
      }),
      terms,
    )
  }
  if (dialect === 'sqlite')
    await sql`insert into project_search(project_search) values ('optimize')`.execute(db)
}
