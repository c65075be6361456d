import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import { locales } from '#server/db/schema.ts'
import { catalogueKinds, NAME_MAX, sheetColumns, sheetLimits, type CatalogueKind } from './admin-limits.ts'

// The catalogue in the admin area (issue 18 item 3; decisions 245–248): categories with images,
// their subcategories and skills, named in the five languages; the skills sheet checked, imported
// and exported. SuperAdmins only (decision 220); every change is in the admin audit trail.
const id = recordId
export { catalogueKinds, NAME_MAX, sheetColumns, sheetLimits, type CatalogueKind }

const name = z
  .string({ error: 'is required' })
  .trim()
  .max(NAME_MAX, `must be at most ${NAME_MAX} characters`)
  // A spreadsheet would run such a name as a formula when the sheet is exported.
  .refine((v) => !/^[=+\-@]/.test(v), 'must not start with =, +, - or @')

/** A name in the five languages: English required, an empty other language falls back to it. One schema for the API and the admin page's forms. */
export const namesSchema = z.object({
  en: name.pipe(z.string().min(1, 'must not be empty')),
  ...(Object.fromEntries(
    locales.filter((l) => l !== 'en').map((l) => [l, name.optional().default('')]),
  ) as Record<Exclude<(typeof locales)[number], 'en'>, z.ZodDefault<z.ZodOptional<typeof name>>>),
})
export const createSchema = z.object({
  kind: z.enum(catalogueKinds, { error: 'is not a catalogue kind' }),
  parentId: id.optional(),
  names: namesSchema,
})
export const renameSchema = z.object({ names: namesSchema })
export const moveSchema = z.object({ direction: z.enum(['up', 'down'], { error: 'must be up or down' }) })
export const importSchema = z.object({ sheetId: id, goodRowsOnly: z.boolean().default(false) })

const localized = z.object(
  Object.fromEntries(locales.map((l) => [l, z.string()])) as Record<(typeof locales)[number], z.ZodString>,
)
const usage = z.object({ profiles: z.number(), projects: z.number() })
const skillItem = z.object({ id: z.number(), slug: z.string(), names: localized, usage })
const subItem = z.object({
  id: z.number(),
  slug: z.string(),
  names: localized,
  usage,
  skills: z.array(skillItem),
})
export const adminCategory = z.object({
  id: z.number(),
  slug: z.string(),
  names: localized,
  imageUrl: z.string(),
  usage,
  subcategories: z.array(subItem),
})
export type AdminCategory = z.output<typeof adminCategory>

export const sheetProblemCodes = [
  'unknownCategory',
  'unknownSubcategory',
  'emptyName',
  'tooLong',
  'formula',
  'duplicateInSheet',
] as const
export const sheetProblem = z.object({
  line: z.number(),
  field: z.string(),
  code: z.enum(sheetProblemCodes),
  message: z.string(),
  firstLine: z.number().optional(),
})
export type SheetProblem = z.output<typeof sheetProblem>
export const sheetReport = z.object({
  sheetId: z.number(),
  fileName: z.string(),
  rows: z.number(),
  /** New skills, skills added to one more subcategory, rows the catalogue already holds. */
  added: z.number(),
  linked: z.number(),
  unchanged: z.number(),
  problems: z.array(sheetProblem),
  /** Lines with at least one problem. */
  badLines: z.array(z.number()),
  clean: z.boolean(),
  imported: z.boolean(),
})
export type SheetReport = z.output<typeof sheetReport>

const tag = 'Admin'
const access = 'admin'
const kindParams = z.object({ kind: z.enum(catalogueKinds, { error: 'is not a catalogue kind' }), id })
const done = z.object({ ok: z.literal(true) })
export const adminCatalogueContract = {
  tree: endpoint({
    method: 'GET',
    path: 'Admin/catalogue',
    summary:
      'Every category with its names in the five languages, image, subcategories, skills and how many profiles and projects use each',
    tag,
    access,
    response: z.object({ data: z.array(adminCategory) }),
  }),
  create: endpoint({
    method: 'POST',
    path: 'Admin/catalogue/items',
    summary: 'Add a category, a subcategory (parentId: its category) or a skill (parentId: its subcategory)',
    tag,
    access,
    body: createSchema,
    response: z.object({ id: z.number() }),
  }),
  rename: endpoint({
    method: 'PUT',
    path: 'Admin/catalogue/{kind}/{id}',
    summary: 'Rename a category, subcategory or skill in the five languages',
    tag,
    access,
    params: kindParams,
    body: renameSchema,
    response: done,
  }),
  move: endpoint({
    method: 'POST',
    path: 'Admin/catalogue/{kind}/{id}/move',
    summary: 'Move a category or subcategory one place up or down',
    tag,
    access,
    params: kindParams,
    body: moveSchema,
    response: done,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: 'Admin/catalogue/{kind}/{id}',
    summary:
      'Delete a category, subcategory or skill; refused (409, with the counts) while profiles or projects use it or it still holds items',
    tag,
    access,
    params: kindParams,
    response: done,
  }),
  image: endpoint({
    method: 'POST',
    path: 'Admin/catalogue/category/{id}/image',
    summary: 'Upload a category image (multipart/form-data, part `file`; docs/product.md §5 image rules)',
    tag,
    access,
    params: z.object({ id }),
    multipart: true,
    response: z.object({ imageUrl: z.string() }),
  }),
  checkSheet: endpoint({
    method: 'POST',
    path: 'Admin/catalogue/skills/check',
    summary: 'Upload a skills sheet (xlsx or csv, part `file`) and check every row; nothing is imported',
    tag,
    access,
    multipart: true,
    response: sheetReport,
  }),
  importSheet: endpoint({
    method: 'POST',
    path: 'Admin/catalogue/skills/import',
    summary:
      'Import a checked sheet in one transaction: only when every row is good, or only its good rows when goodRowsOnly',
    tag,
    access,
    body: importSchema,
    response: sheetReport,
  }),
  exportRows: endpoint({
    method: 'GET',
    path: 'Admin/catalogue/skills',
    summary: 'The skills sheet as rows (the columns of the export)',
    tag,
    access,
    response: z.object({ columns: z.array(z.string()), data: z.array(z.array(z.string())) }),
  }),
  exportSheet: endpoint({
    method: 'GET',
    path: 'Admin/catalogue/skills/export',
    summary: 'The skills sheet as a file (xlsx or csv) that imports unchanged',
    tag,
    access,
    query: z.object({ format: z.enum(['xlsx', 'csv'], { error: 'must be xlsx or csv' }).default('xlsx') }),
    response: z.unknown(),
    responseType: 'file',
  }),
}
