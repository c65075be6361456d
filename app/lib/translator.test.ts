import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import i18next from 'i18next'
import { i18nOptions, supportedLanguages } from './i18n'
import { createT, type Catalogs, type TOptions } from './translator'

// Decision 315: our translator must say exactly what i18next, set up as the app had it, says, for
// every text of every language. Each key is asked for bare, with its `ns:` prefix and with the `ns`
// option, with every count that picks a different plural form somewhere, and with a value for
// every {{slot}} the text has; then the cases around the texts (missing keys, defaults, lists).
const localesDir = path.resolve(import.meta.dirname, '../../locales')
const catalogs: Catalogs = {}
for (const lng of supportedLanguages)
  for (const file of fs.readdirSync(path.join(localesDir, lng)))
    (catalogs[lng] ??= {})[file.replace(/\.json$/, '')] = JSON.parse(
      fs.readFileSync(path.join(localesDir, lng, file), 'utf8'),
    )
// Mails are written on the server from email.json by their own code: the browser never asks for it.
const namespaces = Object.keys(catalogs.en!).filter((ns) => ns !== 'email')

const reference = i18next.createInstance()
await reference.init({ ...i18nOptions, ns: Object.keys(catalogs.en!), resources: catalogs as never })

/** Every text with its key (a name may hold dots itself: "content.create"). */
function textsIn(value: unknown, prefix = ''): Array<[string, string]> {
  if (typeof value !== 'object' || value === null) return [[prefix, String(value)]]
  return Object.entries(value).flatMap(([k, v]) => textsIn(v, prefix ? `${prefix}.${k}` : k))
}
const slotsOf = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1])
const counts = [0, 1, 2, 3, 5, 11, 21, 1.5]

/** Every text of one namespace in one language: its key without plural form, and the slots it fills. */
function textsOf(lng: string, ns: string) {
  const texts = new Map<string, Set<string>>()
  for (const [key, text] of textsIn(catalogs[lng]![ns]!)) {
    const base = key.replace(/_(zero|one|two|few|many|other)$/, '')
    const slots = texts.get(base) ?? new Set<string>()
    for (const s of slotsOf(text)) slots.add(s)
    texts.set(base, slots)
  }
  return texts
}

/** Values for the slots: words, a number, a name given as a string holding a slot of its own. */
function valuesFor(slots: Set<string>, seed: number): TOptions {
  const values: TOptions = {}
  let i = seed
  for (const slot of slots)
    if (slot !== 'count') values[slot] = [`Zoë {{x}} #${i}`, 12345.678 + i, `<b>${i}</b>`][i++ % 3]
  return values
}

describe.each([...supportedLanguages])('our t in %s', (lng) => {
  it.each(namespaces)('says every text of %s as i18next does', (ns) => {
    const ours = createT({ catalogs, lng, ns, fallbackLng: 'en' })
    const oursCommon = createT({ catalogs, lng, ns: 'common', fallbackLng: 'en' })
    const theirs = reference.getFixedT(lng, ns)
    const theirsCommon = reference.getFixedT(lng, 'common')
    let asked = 0
    for (const [key, slots] of textsOf(lng, ns)) {
      const variants: TOptions[] = [valuesFor(slots, asked), {}]
      if (slots.has('count') || key !== key.replace(/_\w+$/, ''))
        for (const count of counts) variants.push({ ...valuesFor(slots, count), count })
      else variants.push({ ...valuesFor(slots, 1), count: 3 })
      for (const options of variants) {
        const said = ours(key, options)
        expect(said, `${lng} ${ns}:${key} ${JSON.stringify(options)}`).toBe(theirs(key, options))
        expect(oursCommon(`${ns}:${key}`, options)).toBe(said)
        expect(oursCommon(`${ns}:${key}`, options)).toBe(theirsCommon(`${ns}:${key}`, options))
        expect(oursCommon(key, { ...options, ns })).toBe(theirsCommon(key, { ...options, ns }))
        asked++
      }
    }
    expect(asked).toBeGreaterThan(2)
  })
})

describe('our t around the texts', () => {
  // Calls the app makes that do not name a plain text: each compared with i18next in every language.
  const calls: Array<[string | string[], (TOptions | string)?]> = [
    ['no.such.key'],
    ['no.such.key', { defaultValue: 'Fallback {{n}}', n: 3 }],
    ['no.such.key', 'a default'],
    ['Only a sentence: with a colon', { defaultValue: 'Only a sentence: with a colon' }],
    ['Field is required.'],
    ['auth:no.such'],
    ['nosuchns:title'],
    ['login.title', { ns: 'auth' }],
    ['login', { ns: 'auth' }],
    ['login.title', { ns: ['nosuch', 'auth'] }],
    ['title', { ns: ['auth', 'projects'] }],
    [['admin.actions.nosuch', 'disputes:actions.release'], { defaultValue: 'release' }],
    [['admin.actions.nosuch', 'disputes:actions.nosuch'], { defaultValue: 'nosuch' }],
    ['projects:list.found', { count: 12345, formatted: '12,345' }],
    ['projects:list.found', { count: 1, formatted: '1' }],
    ['projects:list.found', { count: 0, formatted: '0' }],
    // Options Intl reads go to the formatter as i18next hands them; others use the language's own.
    ['profile:search.ratingAtLeast', { rating: 1234.5, minimumFractionDigits: 2 }],
    ['profile:search.ratingAtLeast', { rating: 12345, useGrouping: false }],
    ['profile:search.ratingAtLeast', { rating: 12345, lng: 'de' }],
    ['profile:search.ratingAtLeast', { rating: 4.5 }],
    ['profile:search.ratingAtLeast', {}],
    ['profile:search.ratingAtLeast', { rating: undefined }],
    ['profile:search.ratingAtLeast', { rating: 'many' }],
    ['content:blog.by', { author: 'Ана', lng: 'ru' }],
    ['content:blog.by', { author: 'Ana', lng: 'de' }],
    ['content:blog.by', {}],
    ['content:blog.by', { author: null }],
    ['adminUsers:audit.actions.content.create'],
    ['adminUsers:audit.actions'],
    ['unknown {{who}}', { who: 'x' }],
    ['status.project.nosuch', { ns: 'ui', defaultValue: 'nosuch' }],
  ]
  it.each([...supportedLanguages])('in %s', (lng) => {
    const ours = createT({ catalogs, lng, ns: 'common', fallbackLng: 'en' })
    // An i18next instance speaking the language, as the server had one per language (decision 275).
    const theirs = reference.cloneInstance({ lng }).getFixedT(lng, 'common')
    for (const [key, options] of calls)
      expect(ours(key, options), `${key} ${JSON.stringify(options)}`).toBe(
        theirs(key as string, options as never),
      )
  })

  it('takes a missing text from English where i18next has a fallback, and the key where it has none', () => {
    const partial: Catalogs = { en: { common: { only: 'English' } }, de: { common: {} } }
    expect(createT({ catalogs: partial, lng: 'de', ns: 'common', fallbackLng: 'en' })('only')).toBe('English')
    expect(createT({ catalogs: partial, lng: 'de', ns: 'common' })('only')).toBe('only')
  })
})
