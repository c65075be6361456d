// Shared by the server middleware and the browser: the languages we speak and how i18next is set up.
export const supportedLanguages = ['en', 'es', 'de', 'it', 'ru'] as const
export type Language = (typeof supportedLanguages)[number]
export const fallbackLanguage: Language = 'en'
export const defaultNS = 'common'
/** The cookie holds the bare code (lang=de), so any page or server can set it. */
export const languageCookie = 'lang'

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value)
}

export const i18nOptions = {
  fallbackLng: fallbackLanguage,
  supportedLngs: [...supportedLanguages],
  defaultNS,
  interpolation: { escapeValue: false },
} as const

/** Namespaces are the file names under locales/<lng>/ (common.json, auth.json, …). */
export function namespacesOf(files: string[]) {
  return [...new Set(files.map((f) => f.match(/([\w-]+)\.json$/)![1]))]
}
