import { sql } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'

// The catalogue's tree (categories, subcategories, skills) as the pickers, filters and cards read
// it. Names are stored per language; the caller's language picks the column.

const name = (locale: Locale) => `name_${locale}` as const

/** Names by id, in one language (`names`). */
export interface CatalogueNames {
  category: ReadonlyMap<number, string>
  subcategory: ReadonlyMap<number, string>
  skill: ReadonlyMap<number, string>
}

export async function categories(db: DB, locale: Locale) {
  const rows = await db
    .selectFrom('category')
    .select(['id', 'slug', 'image_url', `name_${locale} as name`, `description_${locale} as description`])
    .orderBy('sort_order')
    .orderBy('id')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    categoryName: r.name,
    description: r.description,
    attachmentUrl: r.image_url,
  }))
}

export async function subcategories(db: DB, locale: Locale, categoryId?: number) {
  let q = db
    .selectFrom('subcategory')
    .select(['id', 'slug', 'category_id as categoryId', `${name(locale)} as name`])
  if (categoryId) q = q.where('category_id', '=', categoryId)
  return q.orderBy('category_id').orderBy('sort_order').orderBy('id').execute()
}

export async function skills(db: DB, locale: Locale, subcategoryId?: number) {
  let q = db.selectFrom('skill').select(['skill.id', 'skill.slug', `skill.${name(locale)} as name`])
  if (subcategoryId)
    q = q
      .innerJoin('subcategory_skill as ss', 'ss.skill_id', 'skill.id')
      .where('ss.subcategory_id', '=', subcategoryId)
  return q.orderBy(`skill.${name(locale)}`).execute()
}

export async function searchSkills(db: DB, locale: Locale, term: string) {
  // Case-insensitive substring match in the caller's language and in English, which tool names use.
  const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const col = sql.ref(name(locale))
  return db
    .selectFrom('skill')
    .select(['id', 'slug', `${name(locale)} as name`])
    .where((eb) =>
      eb.or([
        eb(sql`lower(${col})`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(name_en)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    )
    .orderBy(sql`length(${col})`)
    .orderBy(name(locale))
    .limit(20)
    .execute()
}

/** Every category with its subcategories and their skills: what the search pages and the editors offer. */
export async function tree(db: DB, locale: Locale) {
  const [cats, subs, links] = await Promise.all([
    categories(db, locale),
    subcategories(db, locale),
    db
      .selectFrom('subcategory_skill as ss')
      .innerJoin('skill', 'skill.id', 'ss.skill_id')
      .select(['ss.subcategory_id', 'skill.id', 'skill.slug', `skill.${name(locale)} as name`])
      .orderBy(`skill.${name(locale)}`)
      .execute(),
  ])
  const skillsBySub = Map.groupBy(links, (l) => l.subcategory_id)
  const subsByCat = Map.groupBy(subs, (s) => s.categoryId)
  return cats.map((c) => ({
    ...c,
    subcategories: (subsByCat.get(c.id) ?? []).map((s) => ({
      ...s,
      skills: (skillsBySub.get(s.id) ?? []).map(({ id, slug, name }) => ({ id, slug, name })),
    })),
  }))
}

/** Every category's, subcategory's and skill's name in `locale`, by id: what a project card shows beside the ids its row holds. */
export async function names(db: DB, locale: Locale): Promise<CatalogueNames> {
  const byId = (rows: Array<{ id: number; name: string }>) => new Map(rows.map((r) => [r.id, r.name]))
  const [category, subcategory, skill] = await Promise.all(
    (['category', 'subcategory', 'skill'] as const).map(async (table) =>
      byId(
        await db
          .selectFrom(table)
          .select(['id', `${name(locale)} as name`])
          .execute(),
      ),
    ),
  )
  return { category, subcategory, skill }
}
