import type { Locale } from '#server/db/schema.ts'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { requireFinder } from './access.ts'
import { countryName, languageName } from './display.ts'
import { profilesOf } from './search-query.ts'

/** The countries and languages listed freelancers have (Find Freelancers' filters offer only those), named and sorted in `locale`. */
export async function searchFacets(db: DB, caller: Caller, locale: Locale) {
  requireFinder(caller)
  const collator = new Intl.Collator(locale)
  const named = (codes: string[], nameOf: (code: string) => string) =>
    codes.map((code) => ({ code, name: nameOf(code) })).sort((a, b) => collator.compare(a.name, b.name))
  const [countries, languages] = await Promise.all([
    profilesOf(db)
      .select('fp.country')
      .distinct()
      .where('fp.listed', '=', 1)
      .where('fp.country', 'is not', null)
      .execute(),
    db
      .selectFrom('freelancer_language')
      .select('language_code')
      .distinct()
      .where('user_id', 'in', profilesOf(db).select('fp.user_id').where('fp.listed', '=', 1))
      .execute(),
  ])
  return {
    countries: named(
      countries.map((r) => r.country!),
      (code) => countryName(locale, code)!,
    ),
    languages: named(
      languages.map((r) => r.language_code),
      (code) => languageName(locale, code),
    ),
  }
}
