import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { locales } from '#server/db/schema.ts'
import { renderNotification } from './texts.ts'

// Every notification a module can store (`<namespace>:notify.<kind>`, with its texts in
// locales/<lng>/<namespace>.json) renders as its own words in every language, never as its key:
// a namespace the renderer would not read (changeOrders once was) shows the reader a raw key.
const root = path.resolve(import.meta.dirname, '../../../locales')
const notices = fs
  .readdirSync(path.join(root, 'en'))
  .filter((file) => file.endsWith('.json'))
  .flatMap((file) => {
    const ns = file.slice(0, -'.json'.length)
    const json = JSON.parse(fs.readFileSync(path.join(root, 'en', file), 'utf8')) as { notify?: unknown }
    return keysOf(json.notify, `${ns}:notify`)
  })

/** The keys of the notices under `node`: an object with a title is one, any other object holds more. */
function keysOf(node: unknown, key: string): string[] {
  if (!node || typeof node !== 'object') return []
  if ('title' in node) return [key]
  return Object.entries(node).flatMap(([k, v]) => keysOf(v, `${key}.${k}`))
}

describe('notification texts', () => {
  test('there are notices of several modules to check', () => {
    expect(new Set(notices.map((k) => k.split(':')[0])).size).toBeGreaterThan(5)
  })
  test.each(locales)('every notice renders in %s as words, not as its key', (locale) => {
    for (const key of notices) {
      const { title } = renderNotification(locale, key, { title: 'T', name: 'N', number: '1' })
      expect(title, `${locale} ${key}`).not.toBe(key)
      expect(title.length, `${locale} ${key}`).toBeGreaterThan(0)
    }
  })
})
