import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import type { z } from 'zod'
import type { DB } from '../../db/database.ts'
import { locales, type Locale } from '../../db/schema.ts'
import type { Caller } from '../../api/handler.ts'
import { ApiError, notFound } from '../../api/errors.ts'
import type { FileService } from '../files/service.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import {
  sheetLimits,
  type CatalogueKind,
  type createSchema,
  type namesSchema,
  type SheetReport,
} from './admin-contract.ts'
import { checkRows, type CatalogueIndex } from './sheet-check.ts'
import { readSkillSheet, SheetError, sheetResponse, writeSkillSheet, type SheetFormat } from './sheet.ts'

type Names = z.output<typeof namesSchema>

const SHEET_PURPOSE = 'catalogue-sheet'
const IMAGE_PURPOSE = 'category-image'
/** A new category shows this until an image is uploaded. */
export const DEFAULT_CATEGORY_IMAGE = '/images/categories/default.svg'
const imageUrlOf = (fileId: number) => `/api/v1/files/${fileId}/download`

const tables = { category: 'category', subcategory: 'subcategory', skill: 'skill' } as const
const columnsOf = (prefix: string, names: Names) =>
  Object.fromEntries(locales.map((l) => [`${prefix}_${l}`, names[l] || names.en]))
const namesOf = (row: Record<string, unknown>) =>
  Object.fromEntries(locales.map((l) => [l, String(row[`name_${l}`])])) as Record<Locale, string>
const conflict = (detail: string, field = 'id') =>
  new ApiError(409, 'Conflict', detail, { [field]: [detail] })
const invalid = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })

/** A slug from the English name, unique in its table (a number added when taken). */
async function freeSlug(executor: DB, table: 'category' | 'subcategory' | 'skill', name: string) {
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

// The admin side of the catalogue (decisions 245–248). Reads for pickers stay in service.ts and are
// cached there: `forget` runs after every commit here, so a new skill is offered at once.
/** The search indexes that hold skill names as words (profiles and projects own them), written in the caller's transaction. */
export interface SkillIndexes {
  freelancer: (trx: DB, userId: number) => Promise<void>
  project: (trx: DB, row: { id: number; title: string; description: string; status: string }) => Promise<void>
}

export function createCatalogueAdmin({
  db,
  files,
  forget,
  indexes,
}: {
  db: DB
  files: FileService
  forget: () => Promise<void>
  indexes?: SkillIndexes
}) {
  files.setReadPolicy(IMAGE_PURPOSE, () => true)
  files.setReferences(IMAGE_PURPOSE, async (executor, ids) => {
    const urls = ids.map(imageUrlOf)
    const used = await executor
      .selectFrom('category')
      .select('image_url')
      .where('image_url', 'in', urls)
      .execute()
    return used.map((r) => Number(r.image_url.split('/').at(-2)))
  })
  // A checked sheet is kept until it is imported or the file sweep takes it (an hour).
  files.setReferences(SHEET_PURPOSE, async () => [])

  /** Runs a change and its audit row in one transaction, then forgets the cached catalogue. */
  async function change<T>(work: (trx: DB) => Promise<T>) {
    try {
      return await db.transaction().execute((trx) => work(trx as unknown as DB))
    } finally {
      // Answered once every instance forgot what it kept, so the next page anywhere shows the change.
      await forget()
    }
  }

  async function counts(
    executor: DB,
    table:
      | 'freelancer_profile'
      | 'client_profile'
      | 'project'
      | 'freelancer_subcategory'
      | 'client_subcategory'
      | 'freelancer_skill'
      | 'project_skill',
    column: string,
    only?: number,
  ) {
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

  async function usageOf(kind: CatalogueKind, executor: DB = db, only?: number) {
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

  async function tree() {
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
      Promise.all(([['category'], ['subcategory'], ['skill']] as const).map(([k]) => usageOf(k))),
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

  /** Refuses a name its siblings already carry (in English, ignoring case). */
  async function requireFreeName(
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

  async function create(caller: Caller, input: z.output<typeof createSchema>) {
    return change(async (trx) => {
      const { kind, names } = input
      let id: number
      if (kind === 'category') {
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
          sort_order: Number(last?.n ?? -1) + 1,
        }
        id = (
          await trx
            .insertInto('category')
            .values(values as never)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
      } else if (kind === 'subcategory') {
        const parent =
          input.parentId &&
          (await trx.selectFrom('category').select('id').where('id', '=', input.parentId).executeTakeFirst())
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
          sort_order: Number(last?.n ?? -1) + 1,
        }
        id = (
          await trx
            .insertInto('subcategory')
            .values(values as never)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
      } else {
        const parent =
          input.parentId &&
          (await trx
            .selectFrom('subcategory')
            .select('id')
            .where('id', '=', input.parentId)
            .executeTakeFirst())
        if (!parent) throw invalid('parentId', 'must name a subcategory')
        id = await addSkill(trx, parent.id, names)
      }
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

  /** A skill into a subcategory: the catalogue's skill of that English name, else a new one. Refused when already there. */
  async function addSkill(trx: DB, subcategoryId: number, names: Names) {
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
    await trx
      .insertInto('subcategory_skill')
      .values({ subcategory_id: subcategoryId, skill_id: id })
      .execute()
    return id
  }

  async function find(trx: DB, kind: CatalogueKind, id: number) {
    const row = await trx.selectFrom(tables[kind]).selectAll().where('id', '=', id).executeTakeFirst()
    if (!row)
      throw notFound(kind === 'category' ? 'Category' : kind === 'subcategory' ? 'Subcategory' : 'Skill')
    return row as Record<string, unknown> & { id: number; name_en: string }
  }

  async function rename(caller: Caller, kind: CatalogueKind, id: number, names: Names) {
    return change(async (trx) => {
      const row = await find(trx, kind, id)
      if (kind === 'skill') {
        const same = await trx
          .selectFrom('skill')
          .select('id')
          .where((eb) => eb(eb.fn('lower', ['name_en']), '=', names.en.toLowerCase()))
          .where('id', '!=', id)
          .executeTakeFirst()
        if (same) throw invalid('names.en', 'is already the name of another skill')
      } else
        await requireFreeName(
          trx,
          kind,
          names,
          kind === 'subcategory' ? (row.category_id as number) : null,
          id,
        )
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

  async function move(caller: Caller, kind: CatalogueKind, id: number, direction: 'up' | 'down') {
    if (kind === 'skill') throw invalid('kind', 'skills are listed by name and cannot be moved')
    return change(async (trx) => {
      const row = await find(trx, kind, id)
      const siblings =
        kind === 'category'
          ? await trx
              .selectFrom('category')
              .select(['id', 'sort_order'])
              .orderBy('sort_order')
              .orderBy('id')
              .execute()
          : await trx
              .selectFrom('subcategory')
              .select(['id', 'sort_order'])
              .where('category_id', '=', row.category_id as number)
              .orderBy('sort_order')
              .orderBy('id')
              .execute()
      const order = siblings.map((s) => s.id)
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

  async function remove(caller: Caller, kind: CatalogueKind, id: number) {
    return change(async (trx) => {
      const row = await find(trx, kind, id)
      const use = await usageOf(kind, trx, id)
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

  async function uploadImage(caller: Caller, id: number, request: Request) {
    await find(db, 'category', id)
    const stored = await files.receive(request, { kind: 'image', purpose: IMAGE_PURPOSE, ownerId: null })
    return change(async (trx) => {
      const row = await find(trx, 'category', id)
      const old = String(row.image_url).match(/^\/api\/v1\/files\/(\d+)\/download$/)
      await trx
        .updateTable('category')
        .set({ image_url: imageUrlOf(stored.id) })
        .where('id', '=', id)
        .execute()
      // The replaced upload goes with this commit; seeded images are files of the site, not uploads.
      if (old) await files.release(trx, [Number(old[1])])
      await recordAdminAction(trx, {
        actorId: caller.userId,
        action: 'catalogue.category.image',
        objectType: 'category',
        objectId: id,
        reason: stored.originalName,
      })
      return { imageUrl: imageUrlOf(stored.id) }
    })
  }

  // ---- the skills sheet ------------------------------------------------------------------------

  async function indexOf(executor: DB): Promise<CatalogueIndex> {
    const [cats, subs, skills, links] = await Promise.all([
      executor.selectFrom('category').select(['id', 'slug', 'name_en']).execute(),
      executor.selectFrom('subcategory').select(['id', 'slug', 'name_en', 'category_id']).execute(),
      executor.selectFrom('skill').select(['id', 'name_en']).execute(),
      executor.selectFrom('subcategory_skill').select(['subcategory_id', 'skill_id']).execute(),
    ])
    return { categories: cats, subcategories: subs, skills, links }
  }

  async function readStoredSheet(sheetId: number) {
    const file = await files.find(sheetId)
    if (!file || file.purpose !== SHEET_PURPOSE)
      throw invalid('sheetId', 'is not a checked sheet (check it again: a sheet is kept for an hour)')
    const bytes = await buffer(files.storage.read(file.storageKey) as Readable)
    try {
      return { file, rows: await readSkillSheet(bytes, file.type === 'csv' ? 'csv' : 'xlsx') }
    } catch (error) {
      if (error instanceof SheetError) throw invalid('file', error.message)
      throw error
    }
  }

  function reportOf(
    sheetId: number,
    fileName: string,
    checked: ReturnType<typeof checkRows>,
    imported: boolean,
  ): SheetReport {
    const badLines = [...new Set(checked.problems.map((p) => p.line))].sort((a, b) => a - b)
    return {
      sheetId,
      fileName,
      rows: checked.rows,
      added: checked.added.length,
      linked: checked.linked.length,
      unchanged: checked.unchanged,
      problems: checked.problems,
      badLines,
      clean: !checked.problems.length,
      imported,
    }
  }

  async function checkSheet(caller: Caller, request: Request) {
    const stored = await files.receive(request, {
      kind: 'spreadsheet',
      purpose: SHEET_PURPOSE,
      ownerId: caller.userId,
      limitKb: sheetLimits.fileKb,
    })
    try {
      const { rows } = await readStoredSheet(stored.id)
      return reportOf(stored.id, stored.originalName, checkRows(rows, await indexOf(db)), false)
    } catch (error) {
      await db.transaction().execute((trx) => files.release(trx, [stored.id]))
      throw error
    }
  }

  async function importSheet(caller: Caller, input: { sheetId: number; goodRowsOnly: boolean }) {
    const { file, rows } = await readStoredSheet(input.sheetId)
    return change(async (trx) => {
      // Checked again inside the transaction: the catalogue may have changed since the check.
      const checked = checkRows(rows, await indexOf(trx))
      if (checked.problems.length && !input.goodRowsOnly) {
        throw new ApiError(
          409,
          'Conflict',
          `The sheet has ${checked.problems.length} problems: fix them, or import only its good rows`,
          { sheetId: ['has rows with problems'] },
        )
      }
      const ids = new Map<string, number>()
      for (const s of checked.added) {
        const id = (
          await trx
            .insertInto('skill')
            .values({
              slug: await freeSlug(trx, 'skill', s.names.en),
              ...columnsOf('name', s.names),
            } as never)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
        ids.set(s.names.en.toLowerCase(), id)
        for (const sub of s.subcategoryIds)
          await trx.insertInto('subcategory_skill').values({ subcategory_id: sub, skill_id: id }).execute()
      }
      for (const l of checked.linked)
        await trx
          .insertInto('subcategory_skill')
          .values({ subcategory_id: l.subcategoryId, skill_id: l.skillId })
          .execute()
      await files.release(trx, [file.id])
      const report = reportOf(file.id, file.originalName, checked, true)
      await recordAdminAction(trx, {
        actorId: caller.userId,
        action: 'catalogue.skills.import',
        objectType: 'catalogue_sheet',
        objectId: file.id,
        reason: `${file.originalName}: ${report.added} skills added, ${report.linked} added to another subcategory, ${report.unchanged} unchanged, ${report.badLines.length} bad rows skipped`,
      })
      return report
    })
  }

  async function exportRows() {
    const rows = await db
      .selectFrom('subcategory_skill as ss')
      .innerJoin('skill as k', 'k.id', 'ss.skill_id')
      .innerJoin('subcategory as s', 's.id', 'ss.subcategory_id')
      .innerJoin('category as c', 'c.id', 's.category_id')
      .select([
        'c.name_en as category',
        's.name_en as subcategory',
        'k.name_en',
        'k.name_es',
        'k.name_de',
        'k.name_it',
        'k.name_ru',
      ])
      .orderBy('c.sort_order')
      .orderBy('c.id')
      .orderBy('s.sort_order')
      .orderBy('s.id')
      .orderBy('k.name_en')
      .execute()
    return rows.map((r) => ({ category: r.category, subcategory: r.subcategory, names: namesOf(r) }))
  }

  async function exportSheet(format: SheetFormat) {
    return sheetResponse(await writeSkillSheet(await exportRows(), format), format)
  }

  return { tree, create, rename, move, remove, uploadImage, checkSheet, importSheet, exportRows, exportSheet }
}

export type CatalogueAdmin = ReturnType<typeof createCatalogueAdmin>
