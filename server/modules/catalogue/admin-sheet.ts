import type { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError } from '#server/api/errors.ts'
import type { FileService } from '../files/service.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import { sheetLimits, type SheetReport } from './admin-contract.ts'
import { columnsOf, freeSlug, inTransaction, invalid, namesOf } from './admin-names.ts'
import { checkRows, type CatalogueIndex } from './sheet-check.ts'
import { readSkillSheet, SheetError, sheetResponse, writeSkillSheet, type SheetFormat } from './sheet.ts'

// The skills sheet: an admin checks a spreadsheet of skills (kept as a file until imported), then
// imports it (all of it, or only its good rows); the catalogue's skills export as the same sheet.

export const SHEET_PURPOSE = 'catalogue-sheet'

async function indexOf(executor: DB): Promise<CatalogueIndex> {
  const [cats, subs, skills, links] = await Promise.all([
    executor.selectFrom('category').select(['id', 'slug', 'name_en']).execute(),
    executor.selectFrom('subcategory').select(['id', 'slug', 'name_en', 'category_id']).execute(),
    executor.selectFrom('skill').select(['id', 'name_en']).execute(),
    executor.selectFrom('subcategory_skill').select(['subcategory_id', 'skill_id']).execute(),
  ])
  return { categories: cats, subcategories: subs, skills, links }
}

async function readStoredSheet(files: FileService, sheetId: number) {
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

export async function checkSheet(deps: { db: DB; files: FileService }, caller: Caller, request: Request) {
  const { db, files } = deps
  const stored = await files.receive(request, {
    kind: 'spreadsheet',
    purpose: SHEET_PURPOSE,
    ownerId: caller.userId,
    limitKb: sheetLimits.fileKb,
  })
  try {
    const { rows } = await readStoredSheet(files, stored.id)
    return reportOf(stored.id, stored.originalName, checkRows(rows, await indexOf(db)), false)
  } catch (error) {
    await db.transaction().execute((trx) => files.release(trx, [stored.id]))
    throw error
  }
}

/** Writes what a checked sheet adds: new skills in their subcategories, and known skills in further ones. */
async function addRows(trx: DB, checked: ReturnType<typeof checkRows>) {
  for (const s of checked.added) {
    const { id } = await trx
      .insertInto('skill')
      .values({ slug: await freeSlug(trx, 'skill', s.names.en), ...columnsOf('name', s.names) } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const sub of s.subcategoryIds)
      await trx.insertInto('subcategory_skill').values({ subcategory_id: sub, skill_id: id }).execute()
  }
  for (const l of checked.linked)
    await trx
      .insertInto('subcategory_skill')
      .values({ subcategory_id: l.subcategoryId, skill_id: l.skillId })
      .execute()
}

export async function importSheet(
  deps: { db: DB; files: FileService },
  caller: Caller,
  input: { sheetId: number; goodRowsOnly: boolean },
) {
  const { db, files } = deps
  const { file, rows } = await readStoredSheet(files, input.sheetId)
  return inTransaction(db, async (trx) => {
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
    await addRows(trx, checked)
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

/** Every skill of every subcategory, in the catalogue's order, named in every language. */
export async function exportRows(db: DB) {
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

export async function exportSheet(db: DB, format: SheetFormat) {
  return sheetResponse(await writeSkillSheet(await exportRows(db), format), format)
}
