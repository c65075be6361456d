import type { z } from 'zod'
import type { DB } from '#server/db/database.ts'
import { locales, type Locale } from '#server/db/schema.ts'
import { ApiError, notFound } from '#server/api/errors.ts'
import type { CatalogueKind, namesSchema } from './admin-contract.ts'

// What every change of the admin catalogue shares: an item's names in five languages, its slug,
// finding it, and the errors it answers.

export type Names = z.output<typeof namesSchema>

export const tables = { category: 'category', subcategory: 'subcategory', skill: 'skill' } as const

/** The columns `<prefix>_<lng>` of `names`; a language left empty takes the English name. */
export const columnsOf = (prefix: string, names: Names) =>
  Object.fromEntries(locales.map((l) => [`${prefix}_${l}`, names[l] || names.en]))

export const namesOf = (row: Record<string, unknown>) =>
  Object.fromEntries(locales.map((l) => [l, String(row[`name_${l}`])])) as Record<Locale, string>

export const conflict = (detail: string, field = 'id') =>
  new ApiError(409, 'Conflict', detail, { [field]: [detail] })

export const invalid = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })

/** Runs a change and its audit row in one transaction. */
export function inTransaction<T>(db: DB, work: (trx: DB) => Promise<T>) {
  return db.transaction().execute((trx) => work(trx as unknown as DB))
}

/** A slug from the English name, unique in its table (a number added when taken). */
export async function freeSlug(executor: DB, table: 'category' | 'subcategory' | 'skill', name: string) {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || table
  const taken = new Set(
    (await executor.selectFrom(table).select('slug').where('slug', 'like', `${base}%`).execute()).map(
      (r) => r.slug,
    ),
  )
  let slug = base
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`
  return slug
}

/** Refuses a name its siblings already carry (in English, ignoring case). */
export async function requireFreeName(
  executor: DB,
  kind: 'category' | 'subcategory',
  names: Names,
  parentId: number | null,
  exceptId?: number,
) {
  let q = executor
    .selectFrom(tables[kind])
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['name_en']), '=', names.en.toLowerCase()))
  if (kind === 'subcategory') q = q.where('category_id' as never, '=', parentId as never)
  if (exceptId) q = q.where('id', '!=', exceptId)
  if (await q.executeTakeFirst()) throw invalid('names.en', 'is already taken here')
}

export async function findItem(executor: DB, kind: CatalogueKind, id: number) {
  const row = await executor.selectFrom(tables[kind]).selectAll().where('id', '=', id).executeTakeFirst()
  if (!row)
    throw notFound(kind === 'category' ? 'Category' : kind === 'subcategory' ? 'Subcategory' : 'Skill')
  return row as Record<string, unknown> & { id: number; name_en: string }
}

/** A skill into a subcategory: the catalogue's skill of that English name, else a new one. Refused when already there. */
export async function addSkill(trx: DB, subcategoryId: number, names: Names) {
  const existing = await trx
    .selectFrom('skill')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['name_en']), '=', names.en.toLowerCase()))
    .executeTakeFirst()
  const id =
    existing?.id ??
    (
      await trx
        .insertInto('skill')
        .values({ slug: await freeSlug(trx, 'skill', names.en), ...columnsOf('name', names) } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
  const linked = await trx
    .selectFrom('subcategory_skill')
    .select('skill_id')
    .where('subcategory_id', '=', subcategoryId)
    .where('skill_id', '=', id)
    .executeTakeFirst()
  if (linked) throw invalid('names.en', 'is already a skill of this subcategory')
  await trx.insertInto('subcategory_skill').values({ subcategory_id: subcategoryId, skill_id: id }).execute()
  return id
}
