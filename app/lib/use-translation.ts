import { useContext } from 'react'
import { I18nContext, useTranslation as useReactI18next } from 'react-i18next'
import type { i18n as I18n, TFunction } from 'i18next'

/**
 * The app's useTranslation: react-i18next's in the browser, a cheaper one on the server.
 *
 * Why: on the server every call of react-i18next's hook copies every property of the i18next
 * instance into a fresh wrapper (it has no earlier render to reuse), and every `t` call walks
 * i18next's whole resolution (fallbacks, plurals, nesting, interpolation). A project list calls
 * the hook about eighty times and `t` hundreds of times per render; together they were a quarter
 * of the server's time on /projects. The server's resources are bundled and never change while it
 * runs, so a string, once translated for a language, key and options, is kept.
 */
type Namespaces = string | readonly string[] | undefined

// Translations by language, namespaces, key and options. Bounded, in case a caller passes
// free text as options (counts and names are few in practice).
const translated = new Map<string, string>()
const MAX_TRANSLATED = 50_000
// One memoizing t per language and namespace list: every instance of a language has the same
// bundled resources (and a request's instance is its language's shared one, decision 275).
const fixedTs = new Map<string, TFunction>()

function memoizedT(i18n: I18n, namespaces: readonly string[]): TFunction {
  const nsKey = namespaces.join(',')
  const tKey = `${i18n.language}\u0000${nsKey}`
  let t = fixedTs.get(tKey)
  if (t) return t
  // As react-i18next does (its default nsMode): keys resolve in the first namespace, and the
  // others are in scope for `ns:key`.
  const getFixedT = i18n.getFixedT.bind(i18n) as (
    lng: string,
    ns: string,
    keyPrefix: undefined,
    options: { scopeNs: readonly string[] },
  ) => TFunction
  const fixed = getFixedT(i18n.language, namespaces[0], undefined, { scopeNs: namespaces })
  const memo = (key: string | string[], options?: unknown) => {
    const optionsKey = options === undefined ? '' : cacheableOptions(options)
    if (optionsKey === null || typeof key !== 'string') return fixed(key as string, options as never)
    const cacheKey = `${i18n.language}\u0000${nsKey}\u0000${key}\u0000${optionsKey}`
    const hit = translated.get(cacheKey)
    if (hit !== undefined) return hit
    const value = fixed(key, options as never) as unknown
    if (typeof value === 'string') {
      if (translated.size >= MAX_TRANSLATED) translated.clear()
      translated.set(cacheKey, value)
    }
    return value
  }
  t = memo as unknown as TFunction
  fixedTs.set(tKey, t)
  return t
}

/** A key for options made of plain values only, or null when they hold anything else. */
function cacheableOptions(options: unknown): string | null {
  if (typeof options === 'string') return JSON.stringify(options)
  if (!options || typeof options !== 'object') return null
  for (const value of Object.values(options)) {
    const kind = typeof value
    if (
      value !== null &&
      kind !== 'string' &&
      kind !== 'number' &&
      kind !== 'boolean' &&
      !(Array.isArray(value) && value.every((v) => typeof v === 'string'))
    )
      return null
  }
  return JSON.stringify(options)
}

// What UsedNamespaces reads at the end of the render (react-i18next keeps the same record).
export function usedNamespacesOf(i18n: I18n) {
  if (!i18n.reportNamespaces) {
    const used = new Set<string>()
    i18n.reportNamespaces = {
      addUsedNamespaces: (namespaces) =>
        void (typeof namespaces === 'string'
          ? used.add(namespaces)
          : namespaces.forEach((ns) => used.add(ns))),
      getUsedNamespaces: () => [...used],
    }
  }
  return i18n.reportNamespaces
}

// The app passes namespaces only (no lng or keyPrefix options), which is all this supports.
function useServerTranslation(ns?: Namespaces) {
  const { i18n } = useContext(I18nContext)
  const namespaces: readonly string[] =
    ns === undefined ? [String(i18n.options.defaultNS ?? 'common')] : typeof ns === 'string' ? [ns] : ns
  usedNamespacesOf(i18n).addUsedNamespaces(namespaces)
  const t = memoizedT(i18n, namespaces)
  return Object.assign([t, i18n, true] as const, { t, i18n, ready: true })
}

export const useTranslation: typeof useReactI18next =
  typeof document === 'undefined'
    ? (useServerTranslation as unknown as typeof useReactI18next)
    : useReactI18next
