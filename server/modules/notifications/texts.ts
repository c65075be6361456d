import fs from 'node:fs'
import path from 'node:path'
import { locales, type Locale } from '#server/db/schema.ts'
import { formatMoney } from '#server/lib/money.ts'

// A notification stores a message key, `<namespace>:<path>` into locales/<lang>/<namespace>.json
// (`projects:notify.proposalAccepted`), whose value is { title, content } with {{param}} slots.
// The module that produces a notification owns its texts; this renders them for each reader.
const root = path.resolve(import.meta.dirname, '../../../locales')
const files = new Map<string, Record<string, unknown>>()

function namespace(locale: Locale, ns: string): Record<string, unknown> {
  const key = `${locale}/${ns}`
  let file = files.get(key)
  if (!file) {
    const at = path.join(root, locale, `${ns}.json`)
    file =
      /^[A-Za-z-]+$/.test(ns) && fs.existsSync(at)
        ? (JSON.parse(fs.readFileSync(at, 'utf8')) as Record<string, unknown>)
        : {}
    files.set(key, file)
  }
  return file
}

function find(locale: Locale, key: string): unknown {
  const [ns, dotted] = key.split(':', 2)
  if (!ns || !dotted) return undefined
  let node: unknown = namespace(locale, ns)
  for (const part of dotted.split('.'))
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined
  return node
}

function lookup(locale: Locale, key: string): { title?: string; content?: string } | undefined {
  const node = find(locale, key)
  return node && typeof node === 'object' ? (node as { title?: string; content?: string }) : undefined
}

/** One plain text, `<namespace>:<path>`, in the reader's language (English when it is missing). */
export function plainText(locale: Locale, key: string): string {
  const text = find(locale, key) ?? find('en', key)
  return typeof text === 'string' ? text : key
}

const fill = (text: string, params: Record<string, unknown>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(params[k] ?? ''))

export function asLocale(value: string | null | undefined): Locale {
  return (locales as readonly string[]).includes(value ?? '') ? (value as Locale) : 'en'
}

/** The stored amounts (`<name>Minor` beside `currency`) as money in the reader's language, as `<name>`. */
function worded(locale: Locale, params: Record<string, unknown>) {
  const { currency } = params
  if (typeof currency !== 'string') return params
  const all = { ...params }
  for (const [k, v] of Object.entries(params))
    if (k.endsWith('Minor') && typeof v === 'number') all[k.slice(0, -5)] = formatMoney(v, currency, locale)
  return all
}

/**
 * The title and content of a stored message in the reader's language (English when a text is
 * missing). An amount is stored as a fact (`amountMinor` and `currency`) and fills `{{amount}}` as
 * money in the reader's language (issue 39 item 4), as `refundMinor` fills `{{refund}}`; older
 * rows stored `amount` as text.
 */
export function renderNotification(locale: Locale, key: string, params: Record<string, unknown>) {
  const text = lookup(locale, key) ?? lookup('en', key) ?? { title: key, content: '' }
  const all = worded(locale, params)
  return { title: fill(text.title ?? key, all), content: fill(text.content ?? '', all) }
}
