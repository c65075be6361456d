import fs from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'

// Finds what a page shows that was not translated: English texts of the locale files on a page in
// another language, translation keys shown as text, and placeholders left unfilled. The texts a
// page shows are its text nodes, its lines, its accessible names (aria-label, alt, title,
// placeholder, a button's value) and its title, hidden ones included (a screen reader reads them).
const localesDir = path.resolve(import.meta.dirname, '../../locales')

type Flat = Map<string, string>

function flatten(value: unknown, prefix: string, out: Flat) {
  if (typeof value === 'string') out.set(prefix, value)
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out)
}

/** Every text of one language, keyed "namespace:path.to.key". */
function texts(lng: string): Flat {
  const out: Flat = new Map()
  for (const file of fs.readdirSync(path.join(localesDir, lng))) {
    if (!file.endsWith('.json')) continue
    flatten(
      JSON.parse(fs.readFileSync(path.join(localesDir, lng, file), 'utf8')),
      `${file.slice(0, -5)}:`,
      out,
    )
  }
  return new Map([...out].map(([k, v]) => [k.replace(':.', ':'), v]))
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A text as a whole-line pattern: interpolations and nested keys match anything, Trans tags nothing. */
function pattern(text: string) {
  const parts = text.replace(/<\/?\d+>/g, '').split(/\{\{[^}]+\}\}|\$t\([^)]*\)/)
  return new RegExp(`^${parts.map(escape).join('.+?')}$`, 's')
}

// Texts that are English on purpose in every language: each language's name in its own language
// (the language picker), and the product's name.
const sameEverywhere = (key: string) => key.startsWith('auth:languages.')

export interface Leftovers {
  english: string[]
  keys: string[]
  placeholders: string[]
}

/** The English a page in `lng` should not show: texts whose translation differs, as line patterns. */
function englishOnly(lng: string) {
  const en = texts('en')
  const target = texts(lng)
  const targetValues = new Set(target.values())
  const out: Array<{ key: string; re: RegExp }> = []
  for (const [key, value] of en) {
    if (sameEverywhere(key) || targetValues.has(value)) continue
    // Too short or made only of interpolations: such a pattern would match any line.
    if (value.replace(/\{\{[^}]+\}\}|<\/?\d+>|[^\p{L}]/gu, '').length < 4) continue
    out.push({ key, re: pattern(value) })
  }
  return out
}

const allKeys = new Set(
  [...texts('en').keys()]
    .flatMap((k) => [k, k.split(':')[1]])
    .map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')),
)

/** The texts the page shows now, each trimmed and whole. */
async function shownTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out = new Set<string>([document.title])
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement?.closest('script, style, noscript, template')) continue
      out.add(n.textContent ?? '')
    }
    for (const line of document.body.innerText.split('\n')) out.add(line)
    for (const el of document.querySelectorAll(
      '[aria-label], [alt], [title], [placeholder], input[type="submit"][value], input[type="button"][value]',
    )) {
      for (const a of ['aria-label', 'alt', 'title', 'placeholder'])
        if (el.hasAttribute(a)) out.add(el.getAttribute(a)!)
      if (el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'button')) out.add(el.value)
    }
    return [...out].map((s) => s.replace(/\s+/g, ' ').trim()).filter(Boolean)
  })
}

const cache = new Map<string, ReturnType<typeof englishOnly>>()

/** What the page, shown in `lng`, has left untranslated. Empty lists when it is all translated. */
export async function findLeftovers(page: Page, lng: string): Promise<Leftovers> {
  if (!cache.has(lng)) cache.set(lng, lng === 'en' ? [] : englishOnly(lng))
  const english = cache.get(lng)!
  const shown = await shownTexts(page)
  return {
    english: shown.flatMap((s) => english.filter((e) => e.re.test(s)).map((e) => `"${s}" (${e.key})`)),
    // A key shown as text, or the fallback of a missing activity text ("installment fund").
    keys: shown.filter(
      (s) =>
        allKeys.has(s) ||
        /^[a-z]+:[a-z][\w.]*$/.test(s) ||
        /^(project|proposal|contract|installment|payment|complaint|review) [a-z_]+$/.test(s),
    ),
    placeholders: shown.filter((s) => /\{\{|\}\}/.test(s)),
  }
}
