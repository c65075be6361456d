import type { DB } from '#server/db/database.ts'
import type { CatalogueKind } from './admin-contract.ts'
import { namesOf } from './admin-names.ts'

// How many profiles and projects use each catalogue item: the admin tree shows it, and an item in
// use cannot be deleted.

type UsingTable =
  | 'freelancer_profile'
  | 'client_profile'
  | 'project'
  | 'freelancer_subcategory'
  | 'client_subcategory'
  | 'freelancer_skill'
  | 'project_skill'

async function counts(executor: DB, table: UsingTable, column: string, only?: number) {
  let q = executor
    .selectFrom(table as 'project')
    .select([`${column} as id` as 'id', (eb) => eb.fn.countAll<number>().as('n')])
    .where(column as 'id', 'is not', null)
  // Deleting asks about one item only; the tree counts them all in one pass per table.
  if (only !== undefined) q = q.where(column as 'id', '=', only)
  const rows = await q.groupBy(column as 'id').execute()
  return new Map(rows.map((r) => [Number(r.id), Number(r.n)]))
}

const add =
  (...maps: Map<number, number>[]) =>
  (id: number) =>
    maps.reduce((sum, m) => sum + (m.get(id) ?? 0), 0)

/** Profiles and projects using each item of a kind (or only the item `only`), by id. */
export async function usageOf(executor: DB, kind: CatalogueKind, only?: number) {
  if (kind === 'category') {
    const [fp, cp, pr] = await Promise.all([
      counts(executor, 'freelancer_profile', 'category_id', only),
      counts(executor, 'client_profile', 'category_id', only),
      counts(executor, 'project', 'category_id', only),
    ])
    return { profiles: add(fp, cp), projects: add(pr) }
  }
  if (kind === 'subcategory') {
    const [fs, cs, pr] = await Promise.all([
      counts(executor, 'freelancer_subcategory', 'subcategory_id', only),
      counts(executor, 'client_subcategory', 'subcategory_id', only),
      counts(executor, 'project', 'subcategory_id', only),
    ])
    return { profiles: add(fs, cs), projects: add(pr) }
  }
  const [fs, ps] = await Promise.all([
    counts(executor, 'freelancer_skill', 'skill_id', only),
    counts(executor, 'project_skill', 'skill_id', only),
  ])
  return { profiles: add(fs), projects: add(ps) }
}

/** The whole catalogue in every language, each item with its usage: the admin area's tree. */
export async function adminTree(db: DB) {
  const [cats, subs, links, use] = await Promise.all([
    db.selectFrom('category').selectAll().orderBy('sort_order').orderBy('id').execute(),
    db.selectFrom('subcategory').selectAll().orderBy('sort_order').orderBy('id').execute(),
    db
      .selectFrom('subcategory_skill as ss')
      .innerJoin('skill', 'skill.id', 'ss.skill_id')
      .selectAll('skill')
      .select('ss.subcategory_id')
      .orderBy('skill.name_en')
      .execute(),
    Promise.all((['category', 'subcategory', 'skill'] as const).map((k) => usageOf(db, k))),
  ])
  const [catUse, subUse, skillUse] = use
  const usage = (u: typeof catUse, id: number) => ({ profiles: u.profiles(id), projects: u.projects(id) })
  const skillsBySub = Map.groupBy(links, (l) => l.subcategory_id)
  const subsByCat = Map.groupBy(subs, (s) => s.category_id)
  return cats.map((c) => ({
    id: c.id,
    slug: c.slug,
    names: namesOf(c),
    imageUrl: c.image_url,
    usage: usage(catUse, c.id),
    subcategories: (subsByCat.get(c.id) ?? []).map((s) => ({
      id: s.id,
      slug: s.slug,
      names: namesOf(s),
      usage: usage(subUse, s.id),
      skills: (skillsBySub.get(s.id) ?? []).map((k) => ({
        id: k.id,
        slug: k.slug,
        names: namesOf(k),
        usage: usage(skillUse, k.id),
      })),
    })),
  }))
}
