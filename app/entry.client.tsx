import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import i18next, { type BackendModule } from 'i18next'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { i18nOptions, isLanguage, fallbackLanguage, namespacesOf } from './lib/i18n'
import { USED_NAMESPACES_ID } from './components/used-namespaces'

// Each locale file is its own cached chunk. Before hydrating, the browser loads only the
// namespaces the server used for this page in this language; others load when a page needs them.
// Mail texts never reach the browser.
const catalogs = import.meta.glob<{ default: Record<string, unknown> }>([
  '../locales/*/*.json',
  '!../locales/*/email.json',
])
const lang = document.documentElement.lang
const locale = isLanguage(lang) ? lang : fallbackLanguage
const fileOf = (lng: string, ns: string) => `../locales/${lng}/${ns}.json`
const available = namespacesOf(Object.keys(catalogs))

const lazyCatalogs: BackendModule = {
  type: 'backend',
  init() {},
  read(lng, ns, callback) {
    const load = catalogs[fileOf(lng, ns)]
    if (!load) return callback(null, {})
    load().then(
      (m) => callback(null, m.default),
      (error) => callback(error, null),
    )
  },
}

let used: string[] = []
try {
  used = JSON.parse(document.getElementById(USED_NAMESPACES_ID)?.textContent ?? '[]')
} catch {
  used = []
}
const initial = [...new Set(['common', ...used])].filter((ns) => available.includes(ns))
const loaded = await Promise.all(initial.map((ns) => catalogs[fileOf(locale, ns)]().then((m) => m.default)))

await i18next
  .use(lazyCatalogs)
  .use(initReactI18next)
  .init({
    ...i18nOptions,
    lng: locale,
    // Every key exists in every language (a test checks), so the browser never needs English as a fallback.
    fallbackLng: false,
    load: 'currentOnly',
    ns: initial,
    partialBundledLanguages: true,
    resources: { [locale]: Object.fromEntries(initial.map((ns, i) => [ns, loaded[i]])) },
  })

startTransition(() => {
  hydrateRoot(
    document,
    <I18nextProvider i18n={i18next}>
      <StrictMode>
        <HydratedRouter />
      </StrictMode>
    </I18nextProvider>,
  )
})
