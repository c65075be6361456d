import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'
import { countries, industries, languages } from './reference-lists.ts'
import { categories, names, searchSkills, skills, subcategories, tree } from './taxonomy.ts'

export type { CatalogueNames } from './taxonomy.ts'

// The catalogue's read side, bound to one database: what the API routes and other modules call.
// Every call reads the tables; the catalogue changes only through the seed and the admin area
// (admin.ts), and a change shows on the next read.
export function createCatalogueService(db: DB) {
  return {
    categories: (locale: Locale) => categories(db, locale),
    subcategories: (locale: Locale, categoryId?: number) => subcategories(db, locale, categoryId),
    skills: (locale: Locale, subcategoryId?: number) => skills(db, locale, subcategoryId),
    searchSkills: (locale: Locale, term: string) => searchSkills(db, locale, term),
    tree: (locale: Locale) => tree(db, locale),
    names: (locale: Locale) => names(db, locale),
    industries: (locale: Locale) => industries(db, locale),
    countries: (locale: Locale) => countries(db, locale),
    languages: (locale: Locale) => languages(db, locale),
  }
}

export type CatalogueService = ReturnType<typeof createCatalogueService>
