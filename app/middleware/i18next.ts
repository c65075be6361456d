import { parseCookie } from 'cookie'
import { createI18nextMiddleware } from 'remix-i18next'
import { initReactI18next } from 'react-i18next'
import { fallbackLanguage, i18nOptions, isLanguage, languageCookie, supportedLanguages, namespacesOf } from '~/lib/i18n'

// Every namespace file of every language, bundled into the server build.
const files = import.meta.glob<{ default: Record<string, unknown> }>('../../locales/*/*.json', { eager: true })
export const resources: Record<string, Record<string, Record<string, unknown>>> = {}
for (const [file, module] of Object.entries(files)) {
  const [, lng, ns] = file.match(/locales\/(\w+)\/(\w[\w-]*)\.json$/)!
  ;(resources[lng] ??= {})[ns] = module.default
}

// The lang cookie holds a bare code, which remix-i18next's own cookie detector (it expects React
// Router's encoded cookies) cannot read, so it is read here; then ?lng=, then Accept-Language.
export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    findLocale: async ({ request }) => {
      const value = parseCookie(request.headers.get('cookie') ?? '')[languageCookie]
      return isLanguage(value) ? value : null
    },
  },
  i18next: { ...i18nOptions, ns: namespacesOf(Object.keys(files)), resources },
  plugins: [initReactI18next],
})
