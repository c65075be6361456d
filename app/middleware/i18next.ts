import { parse } from 'cookie'
import { createI18nextMiddleware } from 'remix-i18next'
import { initReactI18next } from 'react-i18next'
import en from '../../locales/en/common.json'
import es from '../../locales/es/common.json'
import de from '../../locales/de/common.json'
import it from '../../locales/it/common.json'
import ru from '../../locales/ru/common.json'
import { fallbackLanguage, i18nOptions, isLanguage, languageCookie, supportedLanguages } from '~/lib/i18n'

export const resources = { en: { common: en }, es: { common: es }, de: { common: de }, it: { common: it }, ru: { common: ru } }

// The lang cookie holds a bare code, which remix-i18next's own cookie detector (it expects React
// Router's encoded cookies) cannot read, so it is read here; then ?lng=, then Accept-Language.
export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    findLocale: async ({ request }) => {
      const value = parse(request.headers.get('cookie') ?? '')[languageCookie]
      return isLanguage(value) ? value : null
    },
  },
  i18next: { ...i18nOptions, resources },
  plugins: [initReactI18next],
})
