import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import { isLanguage, fallbackLanguage } from './lib/i18n'
import type { Catalog, Catalogs } from './lib/translator'
import { TranslationsProvider, translatorsOf, type Translations } from './lib/translations'
import { USED_NAMESPACES_ID } from './components/used-namespaces'

// Each locale file is its own cached chunk of plain JSON. Before hydrating, the browser loads only
// the namespaces the server used for this page in this language; others load when a page needs them
// (decision 315: our own translator, no i18next in the browser). Mail texts never reach the browser.
const files = import.meta.glob<{ default: Catalog }>(['../locales/*/*.json', '!../locales/*/email.json'])
const lang = document.documentElement.lang
const locale = isLanguage(lang) ? lang : fallbackLanguage
const fileOf = (lng: string, ns: string) => files[`../locales/${lng}/${ns}.json`]

let used: string[] = []
try {
  used = JSON.parse(document.getElementById(USED_NAMESPACES_ID)?.textContent ?? '[]')
} catch {
  used = []
}
// Every key exists in every language (a test checks), so the browser never needs English as a fallback.
// Another language's texts load only for a page that shows them (the admin's content preview).
const catalogs: Catalogs = { [locale]: {} }
const loading = new Map<string, Promise<unknown>>()

/** Loads a namespace once; a file that fails to load leaves its keys showing, as i18next did. */
function pending(ns: string, lng: string = locale) {
  const load = fileOf(lng, ns)
  if (catalogs[lng]?.[ns] || !load) return undefined
  let promise = loading.get(`${lng}/${ns}`)
  if (!promise) {
    promise = load().then(
      (m) => void ((catalogs[lng] ??= {})[ns] = m.default),
      () => undefined,
    )
    loading.set(`${lng}/${ns}`, promise)
  }
  return promise
}

await Promise.all([...new Set(['common', ...used])].map((ns) => pending(ns)))

const translations: Translations = { language: locale, fixedT: translatorsOf(catalogs, locale), pending }

startTransition(() => {
  hydrateRoot(
    document,
    <TranslationsProvider value={translations}>
      <StrictMode>
        <HydratedRouter />
      </StrictMode>
    </TranslationsProvider>,
  )
})
