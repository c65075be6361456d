import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import i18next from 'i18next'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { i18nOptions, isLanguage, fallbackLanguage, namespacesOf } from './lib/i18n'

// Only the page's language is downloaded: each locale file is its own cached chunk.
const catalogs = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json')
const lang = document.documentElement.lang
const locale = isLanguage(lang) ? lang : fallbackLanguage
const mine = Object.keys(catalogs).filter((f) => f.startsWith(`../locales/${locale}/`))
const loaded = await Promise.all(mine.map((f) => catalogs[f]().then((m) => m.default)))
const namespaces = namespacesOf(mine)

await i18next.use(initReactI18next).init({
  ...i18nOptions,
  lng: locale,
  ns: namespaces,
  resources: { [locale]: Object.fromEntries(namespaces.map((ns, i) => [ns, loaded[i]])) },
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
