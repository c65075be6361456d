import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'

// The lists a profile's form picks from: industries (named per language in the table), countries
// and languages. Names of countries and languages come from the runtime's ICU data, so all five
// languages are covered without storing translations.

export async function industries(db: DB, locale: Locale) {
  return db
    .selectFrom('industry')
    .select(['id', 'slug', `name_${locale} as name`])
    .orderBy(`name_${locale}`)
    .execute()
}

export async function countries(db: DB, locale: Locale) {
  const names = new Intl.DisplayNames([locale], { type: 'region' })
  const rows = await db.selectFrom('country').select('code').execute()
  return sortByName(
    rows.map((r) => ({ code: r.code, name: names.of(r.code) ?? r.code })),
    locale,
  )
}

export async function languages(db: DB, locale: Locale) {
  const names = new Intl.DisplayNames([locale], { type: 'language' })
  const rows = await db.selectFrom('language').select('code').execute()
  return sortByName(
    rows.map((r) => ({ code: r.code, name: names.of(r.code) ?? r.code })),
    locale,
  )
}

function sortByName<T extends { name: string }>(rows: T[], locale: Locale) {
  const collator = new Intl.Collator(locale)
  return rows.sort((a, b) => collator.compare(a.name, b.name))
}
