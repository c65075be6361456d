import { locales } from '#server/db/schema.ts'

// The admin catalogue's plain values, with no zod: the pages' components read them in the browser
// (issue 38), and ./admin-contract.ts builds its schemas from them.
export const catalogueKinds = ['category', 'subcategory', 'skill'] as const
export type CatalogueKind = (typeof catalogueKinds)[number]
export const NAME_MAX = 80

// The skills sheet (decision 246): one row per skill of a subcategory, the same columns in and out,
// so an exported sheet imports unchanged. Category and subcategory are named in English (or by
// slug); the skill's name in English is required, the other languages fall back to it.
export const sheetColumns = ['Category', 'Subcategory', ...locales.map((l) => `Skill (${l})`)] as const

export const sheetLimits = {
  /** Data rows a sheet may hold (the catalogue has a few hundred skills). */
  rows: 2000,
  /** The upload's size (the files module's spreadsheet rule takes it). */
  fileKb: 1024,
  /** What an xlsx may unpack to: a small zip can claim gigabytes (a zip bomb). */
  unpackedBytes: 20 * 1024 * 1024,
}
