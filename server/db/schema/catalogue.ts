import type { Generated } from 'kysely'
import type { Localized } from './locales.ts'

// The catalogue: categories, subcategories and skills, named per language; industries, countries, languages.
export type CategoryTable = {
  id: Generated<number>
  slug: string
  image_url: string
  sort_order: number
} & Localized<'name'> &
  Localized<'description'>
export type SubcategoryTable = {
  id: Generated<number>
  category_id: number
  slug: string
  sort_order: number
} & Localized<'name'>
export type SkillTable = { id: Generated<number>; slug: string } & Localized<'name'>
export type SubcategorySkillTable = { subcategory_id: number; skill_id: number }
export type IndustryTable = { id: Generated<number>; slug: string } & Localized<'name'>
export type CountryTable = { code: string }
export type LanguageTable = { code: string }

export interface CatalogueTables {
  category: CategoryTable
  subcategory: SubcategoryTable
  skill: SkillTable
  subcategory_skill: SubcategorySkillTable
  industry: IndustryTable
  country: CountryTable
  language: LanguageTable
}
