import { fieldError, type Trx } from './shared.ts'

// A profile names countries, categories, skills and industries by code or id; the API's schema
// checks their shape, these check that the catalogue has them.

export async function checkCountry(trx: Trx, field: string, code: string | null | undefined) {
  if (!code) return
  const row = await trx.selectFrom('country').select('code').where('code', '=', code).executeTakeFirst()
  if (!row) throw fieldError(field, 'is not a known country')
}

export async function checkIndustry(trx: Trx, industryId: number | null | undefined) {
  if (industryId == null) return
  if (!(await trx.selectFrom('industry').select('id').where('id', '=', industryId).executeTakeFirst()))
    throw fieldError('industryId', 'is not a known industry')
}

/** The category must exist, each subcategory must be one of it, each skill must exist; answers them without repeats. */
export async function checkCategorization(
  trx: Trx,
  categoryId: number,
  subcategoryIds: number[],
  skillIds: number[],
) {
  const category = await trx
    .selectFrom('category')
    .select('id')
    .where('id', '=', categoryId)
    .executeTakeFirst()
  if (!category) throw fieldError('categoryId', 'is not a known category')
  const subs = [...new Set(subcategoryIds)]
  if (subs.length) {
    const found = await trx
      .selectFrom('subcategory')
      .select(['id', 'category_id'])
      .where('id', 'in', subs)
      .execute()
    if (found.length !== subs.length) throw fieldError('subcategoryIds', 'lists an unknown subcategory')
    if (found.some((s) => s.category_id !== categoryId))
      throw fieldError('subcategoryIds', 'must belong to the chosen category')
  }
  const skills = [...new Set(skillIds)]
  if (skills.length) {
    const found = await trx.selectFrom('skill').select('id').where('id', 'in', skills).execute()
    if (found.length !== skills.length) throw fieldError('skillIds', 'lists an unknown skill')
  }
  return { subs, skills }
}
