import type { z } from 'zod'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import type { CatalogueKind, createSchema } from './admin-contract.ts'
import {
  addSkill,
  columnsOf,
  conflict,
  findItem,
  freeSlug,
  inTransaction,
  invalid,
  requireFreeName,
  tables,
  type Names,
} from './admin-names.ts'
import { usageOf } from './admin-usage.ts'

// The admin's changes to the catalogue's items (decisions 245–248): add, rename, move, delete.
// Each runs with its audit row in one transaction; the public reads (service.ts) show it next time.

/** A new category shows this until an image is uploaded. */
export const DEFAULT_CATEGORY_IMAGE = '/images/categories/default.svg'

/** The search indexes that hold skill names as words (profiles and projects own them), written in the caller's transaction. */
export interface SkillIndexes {
  freelancer: (trx: DB, userId: number) => Promise<void>
  project: (trx: DB, row: { id: number; title: string; description: string; status: string }) => Promise<void>
}

const nextSortOrder = (last: { n: unknown } | undefined) => Number(last?.n ?? -1) + 1

async function createCategory(trx: DB, names: Names) {
  await requireFreeName(trx, 'category', names, null)
  const last = await trx
    .selectFrom('category')
    .select((eb) => eb.fn.max('sort_order').as('n'))
    .executeTakeFirst()
  const values = {
    slug: await freeSlug(trx, 'category', names.en),
    ...columnsOf('name', names),
    ...columnsOf('description', { en: '', es: '', de: '', it: '', ru: '' }),
    image_url: DEFAULT_CATEGORY_IMAGE,
    sort_order: nextSortOrder(last),
  }
  const row = await trx
    .insertInto('category')
    .values(values as never)
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

async function createSubcategory(trx: DB, names: Names, parentId: number | undefined) {
  const parent =
    parentId && (await trx.selectFrom('category').select('id').where('id', '=', parentId).executeTakeFirst())
  if (!parent) throw invalid('parentId', 'must name a category')
  await requireFreeName(trx, 'subcategory', names, parent.id)
  const last = await trx
    .selectFrom('subcategory')
    .select((eb) => eb.fn.max('sort_order').as('n'))
    .where('category_id', '=', parent.id)
    .executeTakeFirst()
  const values = {
    slug: await freeSlug(trx, 'subcategory', names.en),
    ...columnsOf('name', names),
    category_id: parent.id,
    sort_order: nextSortOrder(last),
  }
  const row = await trx
    .insertInto('subcategory')
    .values(values as never)
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

async function createSkill(trx: DB, names: Names, parentId: number | undefined) {
  const parent =
    parentId &&
    (await trx.selectFrom('subcategory').select('id').where('id', '=', parentId).executeTakeFirst())
  if (!parent) throw invalid('parentId', 'must name a subcategory')
  return addSkill(trx, parent.id, names)
}

export function createItem(db: DB, caller: Caller, input: z.output<typeof createSchema>) {
  return inTransaction(db, async (trx) => {
    const { kind, names } = input
    const id =
      kind === 'category'
        ? await createCategory(trx, names)
        : kind === 'subcategory'
          ? await createSubcategory(trx, names, input.parentId)
          : await createSkill(trx, names, input.parentId)
    await recordAdminAction(trx, {
      actorId: caller.userId,
      action: `catalogue.${kind}.create`,
      objectType: kind,
      objectId: id,
      reason: names.en,
    })
    return { id }
  })
}

export function renameItem(
  db: DB,
  indexes: SkillIndexes | undefined,
  caller: Caller,
  item: { kind: CatalogueKind; id: number; names: Names },
) {
  const { kind, id, names } = item
  return inTransaction(db, async (trx) => {
    const row = await findItem(trx, kind, id)
    if (kind === 'skill') {
      const same = await trx
        .selectFrom('skill')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['name_en']), '=', names.en.toLowerCase()))
        .where('id', '!=', id)
        .executeTakeFirst()
      if (same) throw invalid('names.en', 'is already the name of another skill')
    } else
      await requireFreeName(trx, kind, names, kind === 'subcategory' ? (row.category_id as number) : null, id)
    await trx
      .updateTable(tables[kind])
      .set(columnsOf('name', names) as never)
      .where('id', '=', id)
      .execute()
    if (kind === 'skill' && indexes) await reindexSkill(trx, id, indexes)
    await recordAdminAction(trx, {
      actorId: caller.userId,
      action: `catalogue.${kind}.rename`,
      objectType: kind,
      objectId: id,
      fromState: row.name_en,
      toState: names.en,
    })
    return { ok: true as const }
  })
}

/** Profiles and open projects with the skill are found by its new name at once (decision 249). */
async function reindexSkill(trx: DB, skillId: number, { freelancer, project }: SkillIndexes) {
  for (const { user_id } of await trx
    .selectFrom('freelancer_skill')
    .select('user_id')
    .where('skill_id', '=', skillId)
    .execute())
    await freelancer(trx, user_id)
  const projects = await trx
    .selectFrom('project_skill as ps')
    .innerJoin('project as p', 'p.id', 'ps.project_id')
    .select(['p.id', 'p.title', 'p.description', 'p.status'])
    .where('ps.skill_id', '=', skillId)
    .execute()
  for (const row of projects) await project(trx, row)
}

async function siblingsOf(trx: DB, kind: 'category' | 'subcategory', row: Record<string, unknown>) {
  return kind === 'category'
    ? trx.selectFrom('category').select(['id', 'sort_order']).orderBy('sort_order').orderBy('id').execute()
    : trx
        .selectFrom('subcategory')
        .select(['id', 'sort_order'])
        .where('category_id', '=', row.category_id as number)
        .orderBy('sort_order')
        .orderBy('id')
        .execute()
}

export function moveItem(
  db: DB,
  caller: Caller,
  item: { kind: CatalogueKind; id: number; direction: 'up' | 'down' },
) {
  const { kind, id, direction } = item
  if (kind === 'skill') throw invalid('kind', 'skills are listed by name and cannot be moved')
  return inTransaction(db, async (trx) => {
    const row = await findItem(trx, kind, id)
    const order = (await siblingsOf(trx, kind, row)).map((s) => s.id)
    const at = order.indexOf(id)
    const to = direction === 'up' ? at - 1 : at + 1
    if (to < 0 || to >= order.length) return { ok: true as const }
    ;[order[at], order[to]] = [order[to], order[at]]
    // Numbered afresh from 0, so equal or sparse orders (seeded, or left by deletions) never stall a move.
    for (const [index, sid] of order.entries())
      await trx
        .updateTable(tables[kind])
        .set({ sort_order: index } as never)
        .where('id', '=', sid)
        .execute()
    await recordAdminAction(trx, {
      actorId: caller.userId,
      action: `catalogue.${kind}.move`,
      objectType: kind,
      objectId: id,
      fromState: String(at + 1),
      toState: String(to + 1),
    })
    return { ok: true as const }
  })
}

/** Refuses to delete an item that profiles or projects use, or that still holds items. */
async function requireUnused(trx: DB, kind: CatalogueKind, id: number) {
  const use = await usageOf(trx, kind, id)
  const profiles = use.profiles(id)
  const projects = use.projects(id)
  if (profiles || projects)
    throw conflict(
      `Used by ${profiles} profiles and ${projects} projects: it cannot be deleted while they use it`,
    )
  if (
    kind === 'category' &&
    (await trx.selectFrom('subcategory').select('id').where('category_id', '=', id).executeTakeFirst())
  )
    throw conflict('It still holds subcategories: delete or move them first')
  if (
    kind === 'subcategory' &&
    (await trx
      .selectFrom('subcategory_skill')
      .select('skill_id')
      .where('subcategory_id', '=', id)
      .executeTakeFirst())
  )
    throw conflict('It still holds skills: delete them first')
}

export function removeItem(db: DB, caller: Caller, kind: CatalogueKind, id: number) {
  return inTransaction(db, async (trx) => {
    const row = await findItem(trx, kind, id)
    await requireUnused(trx, kind, id)
    await trx.deleteFrom(tables[kind]).where('id', '=', id).execute()
    await recordAdminAction(trx, {
      actorId: caller.userId,
      action: `catalogue.${kind}.delete`,
      objectType: kind,
      objectId: id,
      reason: row.name_en,
    })
    return { ok: true as const }
  })
}
