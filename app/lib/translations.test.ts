import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import i18next from 'i18next'
import { i18nOptions, supportedLanguages } from './i18n'

// Every key of every namespace exists, non-empty, in all five languages, with the same
// {{placeholders}}; a missing translation fails here rather than showing a raw key to a user.
// A count ({{count}}) is said in each language's own plural forms (decision 124): i18next picks
// `key_one`, `key_few`, `key_many` or `key_other` from the number by that language's CLDR rules
// (Intl.PluralRules), so a language lacking a form its rules use falls back to English, and a
// count without forms reads "1 reviews".
const localesDir = path.resolve(import.meta.dirname, '../../locales')

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value }
  return Object.entries(value as Record<string, unknown>).reduce(
    (acc, [k, v]) => Object.assign(acc, flatten(v, prefix ? `${prefix}.${k}` : k)),
    {} as Record<string, string>,
  )
}

const namespaces = [
  ...new Set(
    supportedLanguages.flatMap((l) =>
      fs.readdirSync(path.join(localesDir, l)).filter((f) => f.endsWith('.json')),
    ),
  ),
]
const load = (lng: string, file: string) => {
  const p = path.join(localesDir, lng, file)
  return fs.existsSync(p) ? flatten(JSON.parse(fs.readFileSync(p, 'utf8'))) : null
}
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort()

const pluralSuffix = /_(zero|one|two|few|many|other)$/
/** A key without its plural form: every form of a count stands for one key of the code. */
const keyOf = (key: string) => key.replace(pluralSuffix, '')
const countsIn = (text: string) => /\{\{\s*count\b/.test(text)

/** The plural forms each count key has, by key, and the plain keys. */
function pluralFamilies(texts: Record<string, string>) {
  const families = new Map<string, string[]>()
  const plain: string[] = []
  for (const key of Object.keys(texts)) {
    const form = key.match(pluralSuffix)?.[1]
    if (form) families.set(keyOf(key), [...(families.get(keyOf(key)) ?? []), form])
    else plain.push(key)
  }
  return { families, plain }
}

/** What is wrong with the counts of one language's namespace: each finding a line. */
function pluralProblems(lng: string, texts: Record<string, string>) {
  const needed = new Intl.PluralRules(lng).resolvedOptions().pluralCategories as string[]
  const { families, plain } = pluralFamilies(texts)
  const problems: string[] = []
  for (const key of plain)
    if (countsIn(texts[key]))
      problems.push(
        `${key} shows {{count}} without plural forms (${needed.map((f) => `${key}_${f}`).join(', ')})`,
      )
  for (const [key, forms] of families) {
    const missing = needed.filter((f) => !forms.includes(f))
    const unused = forms.filter((f) => f !== 'zero' && !needed.includes(f))
    if (missing.length)
      problems.push(
        `${key} lacks the form${missing.length > 1 ? 's' : ''} ${missing.map((f) => `${key}_${f}`).join(', ')}`,
      )
    if (unused.length) problems.push(`${key} has forms ${lng} never uses: ${unused.join(', ')}`)
    if (plain.includes(key)) problems.push(`${key} is both a plain key and a count`)
  }
  return problems
}

describe.each(namespaces)('translations of %s', (file) => {
  const en = load('en', file)
  it('exists in English', () => expect(en).not.toBeNull())
  it.each(supportedLanguages.filter((l) => l !== 'en'))('has every key in %s', (lng) => {
    const other = load(lng, file)
    expect(other, `${lng}/${file} is missing`).not.toBeNull()
    // The same keys, a count's forms counted once (languages have different numbers of forms).
    const keys = (texts: Record<string, string>) => [...new Set(Object.keys(texts).map(keyOf))].sort()
    expect(keys(other!)).toEqual(keys(en!))
    for (const [key, text] of Object.entries(other!)) {
      expect(text.trim(), `${lng}/${file}: ${key} is empty`).not.toBe('')
      const english = en![key] ?? en![`${keyOf(key)}_other`]
      expect(placeholders(text), `${lng}/${file}: ${key} placeholders`).toEqual(placeholders(english))
    }
  })
  it.each([...supportedLanguages])('says every count in the plural forms of %s', (lng) => {
    expect(pluralProblems(lng, load(lng, file) ?? {})).toEqual([])
  })
})

describe('the plural check', () => {
  // The check itself, on made-up texts: each would pass unnoticed if the check did not look.
  it('finds a count without forms, a missing form and a form the language never uses', () => {
    expect(pluralProblems('en', { average: 'Average {{average}} from {{count}} reviews' })).toEqual([
      'average shows {{count}} without plural forms (average_one, average_other)',
    ])
    expect(
      pluralProblems('ru', {
        n_one: '{{count}} отзыв',
        n_many: '{{count}} отзывов',
        n_other: '{{count}} отзыва',
      }),
    ).toEqual(['n lacks the form n_few'])
    expect(pluralProblems('es', { n_one: '{{count}} reseña', n_other: '{{count}} reseñas' })).toEqual([
      'n lacks the form n_many',
    ])
    expect(
      pluralProblems('de', {
        n_one: '{{count}} Stern',
        n_few: '{{count}} Sterne',
        n_other: '{{count}} Sterne',
      }),
    ).toEqual(['n has forms de never uses: few'])
    expect(pluralProblems('en', { n: '{{count}}', n_one: '1', n_other: '{{count}}' })).toEqual([
      'n shows {{count}} without plural forms (n_one, n_other)',
      'n is both a plain key and a count',
    ])
    expect(
      pluralProblems('it', {
        page: 'Pagina {{page}} di {{pages}}',
        n_zero: 'nessuna',
        n_one: '{{count}} stella',
        n_many: '{{count}} stelle',
        n_other: '{{count}} stelle',
      }),
    ).toEqual([])
  })
})

describe('counts in the pages', () => {
  // The app's own i18next settings and texts: the forms above are the ones it picks.
  const i18n = i18next.createInstance()
  const resources = Object.fromEntries(
    supportedLanguages.map((lng) => [
      lng,
      Object.fromEntries(
        namespaces.map((file) => [
          file.replace(/\.json$/, ''),
          JSON.parse(fs.readFileSync(path.join(localesDir, lng, file), 'utf8')),
        ]),
      ),
    ]),
  )
  const ready = i18n.init({ ...i18nOptions, ns: Object.keys(resources.en), resources })
  const say = async (lng: string, key: string, count: number) => (
    await ready,
    i18n.t(key, { lng, count, average: '5.00', formatted: String(count) })
  )

  it('says "from 1 review", not "from 1 reviews", and counts in each language\'s forms', async () => {
    expect(await say('en', 'projects:reviews.average', 1)).toBe('Average 5.00 from 1 review')
    expect(await say('en', 'projects:reviews.average', 2)).toBe('Average 5.00 from 2 reviews')
    expect(await say('de', 'profile:public.rating', 1)).toBe('★ 5.00 (1 Bewertung)')
    expect(await say('es', 'projects:list.proposals', 1)).toBe('1 propuesta')
    expect(await say('it', 'projects:list.days', 1)).toBe('1 giorno')
    expect(
      await Promise.all([1, 3, 5, 21, 22, 111].map((n) => say('ru', 'profile:public.rating', n))),
    ).toEqual([
      '★ 5.00 (1 отзыв)',
      '★ 5.00 (3 отзыва)',
      '★ 5.00 (5 отзывов)',
      '★ 5.00 (21 отзыв)',
      '★ 5.00 (22 отзыва)',
      '★ 5.00 (111 отзывов)',
    ])
    expect(await say('de', 'projects:list.found', 1)).toBe('1 Projekt gefunden')
    // and a number in the page's language
    expect(i18n.t('profile:search.ratingAtLeast', { lng: 'de', rating: 12345 })).toBe(
      '12.345 Sterne oder mehr',
    )
    expect(i18n.t('profile:search.ratingAtLeast', { lng: 'de', rating: 4.5 })).toBe('4,5 Sterne oder mehr')
  })
})
