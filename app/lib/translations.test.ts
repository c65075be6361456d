import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { supportedLanguages } from './i18n'

// Every key of every namespace exists, non-empty, in all five languages, with the same
// {{placeholders}}; a missing translation fails here rather than showing a raw key to a user.
const localesDir = path.resolve(import.meta.dirname, '../../locales')

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value }
  return Object.entries(value as Record<string, unknown>).reduce(
    (acc, [k, v]) => Object.assign(acc, flatten(v, prefix ? `${prefix}.${k}` : k)),
    {} as Record<string, string>,
  )
}

const namespaces = [...new Set(supportedLanguages.flatMap((l) => fs.readdirSync(path.join(localesDir, l)).filter((f) => f.endsWith('.json'))))]
const load = (lng: string, file: string) => {
  const p = path.join(localesDir, lng, file)
  return fs.existsSync(p) ? flatten(JSON.parse(fs.readFileSync(p, 'utf8'))) : null
}
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort()

describe.each(namespaces)('translations of %s', (file) => {
  const en = load('en', file)
  it('exists in English', () => expect(en).not.toBeNull())
  it.each(supportedLanguages.filter((l) => l !== 'en'))('has every key in %s', (lng) => {
    const other = load(lng, file)
    expect(other, `${lng}/${file} is missing`).not.toBeNull()
    expect(Object.keys(other!).sort()).toEqual(Object.keys(en!).sort())
    for (const [key, text] of Object.entries(other!)) {
      expect(text.trim(), `${lng}/${file}: ${key} is empty`).not.toBe('')
      expect(placeholders(text), `${lng}/${file}: ${key} placeholders`).toEqual(placeholders(en![key]))
    }
  })
})
