import type { Generated } from 'kysely'

// Table shapes as Kysely sees them. Flags are 0/1 integers and timestamps ISO-8601 UTC strings on
// both databases, so services never branch on the dialect.
export const locales = ['en', 'es', 'de', 'it', 'ru'] as const
export type Locale = (typeof locales)[number]

type Localized<P extends string> = { [L in Locale as `${P}_${L}`]: string }

export type CategoryTable = { id: Generated<number>; slug: string; image_url: string; sort_order: number } & Localized<'name'> & Localized<'description'>
export type SubcategoryTable = { id: Generated<number>; category_id: number; slug: string; sort_order: number } & Localized<'name'>
export type SkillTable = { id: Generated<number>; slug: string } & Localized<'name'>
export type SubcategorySkillTable = { subcategory_id: number; skill_id: number }
export type IndustryTable = { id: Generated<number>; slug: string } & Localized<'name'>
export type CountryTable = { code: string }
export type LanguageTable = { code: string }

export interface Database {
  category: CategoryTable
  subcategory: SubcategoryTable
  skill: SkillTable
  subcategory_skill: SubcategorySkillTable
  industry: IndustryTable
  country: CountryTable
  language: LanguageTable
}
