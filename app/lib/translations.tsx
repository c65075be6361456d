import { createContext, use, type ReactNode } from 'react'
import { defaultNS } from './i18n'
import { createT, type Catalogs, type TFunction } from './translator'

// The translation hook every component uses (issue 38, decision 315): our own translator behind a
// React context, instead of i18next's runtime, which weighed 17 KB gzip on every page. The server
// gives it every catalog and notes the namespaces a page uses; the browser gives it the catalogs it
// has loaded and loads the others as a page asks for them.

export type { TFunction } from './translator'

export type Translations = {
  language: string
  /** The `t` of one default namespace: the same function on every call, as effects may depend on it. */
  fixedT: (ns: string) => TFunction
  /** In the browser: a promise while a namespace (of the page's language, or of `lng`) is still loading, nothing once it is there. */
  pending?: (ns: string, lng?: string) => Promise<unknown> | undefined
  /** On the server: the namespaces this page used, in the order it used them (UsedNamespaces writes them). */
  used?: Set<string>
}

/** The `t` of each namespace in one language, made once. */
export function translatorsOf(catalogs: Catalogs, lng: string, fallbackLng: string | false = false) {
  const made = new Map<string, TFunction>()
  return (ns: string) => {
    let t = made.get(ns)
    if (!t) made.set(ns, (t = createT({ catalogs, lng, ns, fallbackLng })))
    return t
  }
}

const TranslationsContext = createContext<Translations | null>(null)
const views = new WeakMap<Translations, { language: string }>()

export function TranslationsProvider({ value, children }: { value: Translations; children: ReactNode }) {
  return <TranslationsContext value={value}>{children}</TranslationsContext>
}

function useTranslations() {
  const translations = use(TranslationsContext)
  if (!translations) throw new Error('useTranslation needs a TranslationsProvider above it')
  return translations
}

/**
 * `t` for the namespaces given (the first is the one of keys without a prefix, as with
 * react-i18next; the others are named by `ns:key`), and the page's language. A namespace the
 * browser has not loaded yet suspends the page until it is there, so no key ever shows: during a
 * navigation React Router keeps the page before on screen meanwhile.
 */
export function useTranslation(ns?: string | readonly string[]) {
  const translations = useTranslations()
  const namespaces = ns === undefined ? [defaultNS] : typeof ns === 'string' ? [ns] : [...ns]
  for (const n of namespaces) {
    translations.used?.add(n)
    const loading = translations.pending?.(n)
    if (loading) use(loading)
  }
  let i18n = views.get(translations)
  if (!i18n) views.set(translations, (i18n = { language: translations.language }))
  return { t: translations.fixedT(namespaces[0] ?? defaultNS), i18n }
}

/**
 * Makes a namespace's texts in other languages ready for `t(key, { lng })`: the browser has only
 * the page's language until then (the admin's preview shows a post in each language it is written in).
 */
export function useOtherLanguages(ns: string, languages: readonly string[]) {
  const translations = useTranslations()
  for (const lng of languages) {
    const loading = translations.pending?.(ns, lng)
    if (loading) use(loading)
  }
}

/** The namespaces the page used so far (the server's record; empty in the browser). */
export function useUsedNamespaces() {
  return [...(useTranslations().used ?? [])]
}
