import { sql } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { Locale } from '../../db/schema.ts'
import { createShortCache } from '../../lib/short-cache.ts'
import { localBus, type CacheBus } from '../../lib/cache-bus.ts'

/** How long an instance keeps a language's categories and tree (the catalogue changes only through seeds and the admin area). */
export const CATALOGUE_CACHE_TTL_MS = 60_000

// Read side of the catalogue. Names are stored per language; the caller's language picks the column.
// Every page's shell shows the categories and the search pages the whole tree, so both are kept
// per language for a minute (server/lib/short-cache.ts); `forget` clears them after a write, on
// every instance sharing the bus.
export function createCatalogueService(db: DB, options: { cacheTtlMs?: number; bus?: CacheBus } = {}) {
  const name = (locale: Locale) => `name_${locale}` as const
  const cache = createShortCache(options.cacheTtlMs ?? CATALOGUE_CACHE_TTL_MS, {
    shared: { bus: options.bus ?? localBus(), name: 'catalogue' },
  })

  function categories(locale: Locale) {
    return cache.get(`categories:${locale}`, () => readCategories(locale))
  }

  async function readCategories(locale: Locale) {
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

  async function subcategories(locale: Locale, categoryId?: number) {
    let q = db
      .selectFrom('subcategory')
      .select(['id', 'slug', 'category_id as categoryId', `${name(locale)} as name`])
    if (categoryId) q = q.where('category_id', '=', categoryId)
    return q.orderBy('category_id').orderBy('sort_order').orderBy('id').execute()
  }

  async function skills(locale: Locale, subcategoryId?: number) {
    let q = db.selectFrom('skill').select(['skill.id', 'skill.slug', `skill.${name(locale)} as name`])
    if (subcategoryId)
      q = q
        .innerJoin('subcategory_skill as ss', 'ss.skill_id', 'skill.id')
        .where('ss.subcategory_id', '=', subcategoryId)
    return q.orderBy(`skill.${name(locale)}`).execute()
  }

  async function searchSkills(locale: Locale, term: string) {
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

  function tree(locale: Locale) {
    return cache.get(`tree:${locale}`, () => readTree(locale))
  }

  async function readTree(locale: Locale) {
    const [cats, subs, links] = await Promise.all([
      categories(locale),
      subcategories(locale),
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

  /**
   * Every category's, subcategory's and skill's name in `locale`, by id: what a project card shows
   * beside the ids its row holds, without a statement per page. `fresh` reads past the cache, for an
   * id newer than what this instance keeps (another instance's write, before its bus message).
   */
  function names(locale: Locale, { fresh = false } = {}) {
    return fresh ? readNames(locale) : cache.get(`names:${locale}`, () => readNames(locale))
  }

  async function readNames(locale: Locale) {
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
    return { category, subcategory, skill } as CatalogueNames
  }

  async function industries(locale: Locale) {
    return db
      .selectFrom('industry')
      .select(['id', 'slug', `${name(locale)} as name`])
      .orderBy(name(locale))
      .execute()
  }

  // Names of countries and languages come from the runtime's ICU data, so all five languages are
  // covered without storing translations.
  async function countries(locale: Locale) {
    const names = new Intl.DisplayNames([locale], { type: 'region' })
    const rows = await db.selectFrom('country').select('code').execute()
    return sortByName(
      rows.map((r) => ({ code: r.code, name: names.of(r.code) ?? r.code })),
      locale,
    )
  }

  async function languages(locale: Locale) {
    const names = new Intl.DisplayNames([locale], { type: 'language' })
    const rows = await db.selectFrom('language').select('code').execute()
    return sortByName(
      rows.map((r) => ({ code: r.code, name: names.of(r.code) ?? r.code })),
      locale,
    )
  }

  return {
    categories,
    subcategories,
    skills,
    searchSkills,
    tree,
    names,
    industries,
    countries,
    languages,
    forget: cache.clear,
  }
}

/** Names by id, in one language (`CatalogueService.names`); shared, so read-only. */
export interface CatalogueNames {
  category: ReadonlyMap<number, string>
  subcategory: ReadonlyMap<number, string>
  skill: ReadonlyMap<number, string>
}

function sortByName<T extends { name: string }>(rows: T[], locale: Locale) {
  const collator = new Intl.Collator(locale)
  return rows.sort((a, b) => collator.compare(a.name, b.name))
}

export type CatalogueService = ReturnType<typeof createCatalogueService>
