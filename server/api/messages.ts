import fs from 'node:fs'
import path from 'node:path'
import type { Locale } from '../db/schema.ts'

// An input schema shared by a form and the API words each rule as a key of a translation namespace
// (`projects:errors.deadlinePast`): the page shows it in the reader's language, and the API says it
// in the caller's language from the same files (locales/<lng>/<ns>.json). Any other message (a
// service's own English words) is said as it is.

const root = path.resolve(import.meta.dirname, '../../locales')
const KEY = /^([a-z][\w-]*):([\w-]+(?:\.[\w-]+)*)$/i
const namespaces = new Set(
  fs
    .readdirSync(path.join(root, 'en'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length)),
)
const files = new Map<string, Record<string, unknown>>()

function namespace(locale: Locale, ns: string) {
  const name = `${locale}/${ns}`
  let file = files.get(name)
  if (!file) {
    const at = path.join(root, locale, `${ns}.json`)
    file = fs.existsSync(at) ? (JSON.parse(fs.readFileSync(at, 'utf8')) as Record<string, unknown>) : {}
    files.set(name, file)
  }
  return file
}

function lookup(file: Record<string, unknown>, key: string): unknown {
  let value: unknown = file
  for (const part of key.split('.')) {
    if (!value || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

/**
 * A message in `locale`: a known `namespace:key` is translated (English when the language lacks it);
 * anything else is kept. A key may carry the facts its sentence names as a query
 * (`timesheets:errors.overLimit?limit=40` fills `{{limit}}`), so a rule can say the number it enforces.
 */
export function say(message: string, locale: Locale = 'en'): string {
  const at = message.indexOf('?')
  const match = KEY.exec(at < 0 ? message : message.slice(0, at))
  if (!match || !namespaces.has(match[1])) return message
  const [, ns, key] = match
  const text = lookup(namespace(locale, ns), key) ?? lookup(namespace('en', ns), key)
  if (typeof text !== 'string') return message
  const facts = new URLSearchParams(at < 0 ? '' : message.slice(at + 1))
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => facts.get(name) ?? whole)
}
