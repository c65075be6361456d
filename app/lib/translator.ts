// Our own translator (issue 38, decision 315): catalogs in, `t` out, no React and no i18next, so the
// browser, the server and the tests share it. It gives exactly what i18next 26 gives, with the app's
// settings, for what our code and locale files use: `ns:key` prefixes, keys nested by '.', the `ns`
// option, lists of keys, plurals by count, `{{name}}` and `{{name, number}}`, `defaultValue`, `lng`
// and the key itself when missing. translator.test.ts compares the two on every text we have.

/** One namespace's file: locales/<lng>/<ns>.json. */
export type Catalog = { [key: string]: unknown }
/** Catalogs by language, then namespace. */
export type Catalogs = Record<string, Record<string, Catalog | undefined> | undefined>

export type TOptions = {
  count?: number
  ns?: string | readonly string[]
  defaultValue?: string
  lng?: string
  [value: string]: unknown
}
export type TFunction = (key: string | readonly string[], options?: TOptions | string) => string

type Settings = {
  catalogs: Catalogs
  /** The language `t` speaks unless a call names another with `lng`. */
  lng: string
  /** The namespace of keys without a prefix. */
  ns: string
  /** Where a text missing in a language is looked for next (the server's English; none in the browser). */
  fallbackLng?: string | false
}

const isString = (v: unknown): v is string => typeof v === 'string'
const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k)

/** A key with one of these characters is a sentence, not `ns:path`, unless its first part has none. */
const sentenceLike = /[ ,?!;]/
function splitsNamespace(key: string) {
  if (!key.includes(':')) return false
  if (!sentenceLike.test(key)) return true
  const dot = key.indexOf('.')
  return dot > 0 && !sentenceLike.test(key.slice(0, dot))
}

/** i18next's deepFind: a path by '.', where a name may itself hold dots ("content.create"). */
function deepFind(obj: unknown, path: string): unknown {
  if (!obj || typeof obj !== 'object') return undefined
  const o = obj as Record<string, unknown>
  if (o[path]) return own(o, path) ? o[path] : undefined
  const tokens = path.split('.')
  let current: unknown = o
  for (let i = 0; i < tokens.length;) {
    if (!current || typeof current !== 'object') return undefined
    let next: unknown
    let nextPath = ''
    for (let j = i; j < tokens.length; ++j) {
      nextPath += (j !== i ? '.' : '') + tokens[j]
      const c = current as Record<string, unknown>
      next = own(c, nextPath) ? c[nextPath] : undefined
      if (next !== undefined) {
        if (['string', 'number', 'boolean'].includes(typeof next) && j < tokens.length - 1) continue
        i = j + 1
        break
      }
    }
    current = next
  }
  return current
}

function resource(catalog: Catalog | undefined, key: string): unknown {
  if (!catalog) return undefined
  let node: unknown = catalog
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || !own(node, part)) {
      node = undefined
      break
    }
    node = (node as Record<string, unknown>)[part]
  }
  return node ?? deepFind(catalog, key)
}

const pluralRules = new Map<string, Intl.PluralRules>()
function pluralOf(lng: string, count: number) {
  let rule = pluralRules.get(lng)
  if (!rule) pluralRules.set(lng, (rule = new Intl.PluralRules(lng)))
  return rule.select(count)
}

/** Formats a value as `{{name, number}}` asks; i18next hands the call's options to Intl as they are. */
function formatted(value: unknown, format: string, lng: string, options: Record<string, unknown>) {
  if (value == null || format.toLowerCase() !== 'number') return value
  try {
    return new Intl.NumberFormat(lng, options).format(value as number)
  } catch {
    return value
  }
}

/** `{{name}}` and `{{name, number}}`; a value is never read again for slots of its own. */
export function interpolate(text: string, values: Record<string, unknown>, lng: string) {
  // Most texts have no slot: they skip the regex (a page says 60–220 texts).
  if (!text.includes('{{')) return text
  return text.replace(/\{\{(-?)(.+?)\}\}/g, (slot, _raw: string, inner: string) => {
    const [name, ...format] = inner.trim().split(',')
    const key = name.trim()
    let value = deepFind(values, key)
    if (format.length) value = formatted(value, format.join(',').trim(), lng, values)
    // A slot without a value stays as it is, unless the call names it (i18next's skipOnVariables).
    if (value === undefined) return own(values, inner.trim()) ? '' : slot
    return value == null ? '' : String(value)
  })
}

const found = (v: unknown) => v !== undefined && v !== null

/** Makes the `t` of one language and default namespace. */
export function createT({ catalogs, lng, ns, fallbackLng = false }: Settings): TFunction {
  return (keys, given) => {
    const options: TOptions = isString(given) ? { defaultValue: given } : { ...given }
    const language = options.lng ?? lng
    const languages = fallbackLng && fallbackLng !== language ? [language, fallbackLng] : [language]
    const plural = options.count !== undefined && !isString(options.count)
    const list = isString(keys) ? [keys] : [...keys]
    let res: unknown
    let usedKey = ''
    for (const full of list) {
      const split = splitsNamespace(full)
      const parts = split ? full.split(':') : [full]
      const key = split ? parts.slice(1).join('.') : full
      const namespaces = split ? [parts[0]] : [options.ns || ns].flat()
      usedKey = key
      res = lookUp(catalogs, namespaces, languages, key, plural ? options.count : undefined)
      if (found(res)) break
    }
    if (found(res) && typeof res === 'object')
      return `key '${usedKey} (${lng})' returned an object instead of string.`
    if (!found(res) && options.defaultValue !== undefined) res = options.defaultValue
    if (!found(res)) res = usedKey
    return interpolate(String(res), options, language)
  }
}

function lookUp(catalogs: Catalogs, namespaces: string[], languages: string[], key: string, count?: number) {
  for (const ns of namespaces)
    for (const code of languages) {
      const catalog = catalogs[code]?.[ns]
      // The forms are tried most specific first: `_zero` for 0, then the language's form, then the bare key.
      const tried = [key]
      if (count !== undefined) {
        tried.push(`${key}_${pluralOf(code, count)}`)
        if (count === 0) tried.push(`${key}_zero`)
      }
      for (let k = tried.pop(); k !== undefined; k = tried.pop()) {
        const res = resource(catalog, k)
        if (found(res)) return res
      }
    }
  return undefined
}
