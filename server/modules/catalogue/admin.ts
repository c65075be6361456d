import type { z } from 'zod'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import type { FileService } from '../files/service.ts'
import type { CatalogueKind, createSchema } from './admin-contract.ts'
import { registerCategoryImages, uploadCategoryImage } from './admin-image.ts'
import { createItem, moveItem, removeItem, renameItem, type SkillIndexes } from './admin-items.ts'
import type { Names } from './admin-names.ts'
import { checkSheet, exportRows, exportSheet, importSheet, SHEET_PURPOSE } from './admin-sheet.ts'
import { adminTree } from './admin-usage.ts'
import type { SheetFormat } from './sheet.ts'

export { DEFAULT_CATEGORY_IMAGE, type SkillIndexes } from './admin-items.ts'

// The admin side of the catalogue (decisions 245–248), bound to its dependencies: the database,
// the file service (category images, checked sheets) and the search indexes that hold skill names.
export function createCatalogueAdmin({
  db,
  files,
  indexes,
}: {
  db: DB
  files: FileService
  indexes?: SkillIndexes
}) {
  registerCategoryImages(files)
  // A checked sheet is kept until it is imported or the file sweep takes it (an hour).
  files.setReferences(SHEET_PURPOSE, async () => [])
  const deps = { db, files }
  return {
    tree: () => adminTree(db),
    create: (caller: Caller, input: z.output<typeof createSchema>) => createItem(db, caller, input),
    rename: (caller: Caller, kind: CatalogueKind, id: number, names: Names) =>
      renameItem(db, indexes, caller, { kind, id, names }),
    move: (caller: Caller, kind: CatalogueKind, id: number, direction: 'up' | 'down') =>
      moveItem(db, caller, { kind, id, direction }),
    remove: (caller: Caller, kind: CatalogueKind, id: number) => removeItem(db, caller, kind, id),
    uploadImage: (caller: Caller, id: number, request: Request) =>
      uploadCategoryImage(deps, caller, id, request),
    checkSheet: (caller: Caller, request: Request) => checkSheet(deps, caller, request),
    importSheet: (caller: Caller, input: { sheetId: number; goodRowsOnly: boolean }) =>
      importSheet(deps, caller, input),
    exportRows: () => exportRows(db),
    exportSheet: (format: SheetFormat) => exportSheet(db, format),
  }
}

export type CatalogueAdmin = ReturnType<typeof createCatalogueAdmin>
