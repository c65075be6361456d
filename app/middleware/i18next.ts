import { parseCookie } from 'cookie'
import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { createI18nextMiddleware } from 'remix-i18next'
import {
  defaultNS,
  fallbackLanguage,
  i18nOptions,
  isLanguage,
  languageCookie,
  supportedLanguages,
  type Language,
} from '~/lib/i18n'
import type { Catalog, Catalogs, TFunction } from '~/lib/translator'
import { translatorsOf, type Translations } from '~/lib/translations'

// Every namespace file of every language, bundled into the server build.
const files = import.meta.glob<{ default: Catalog }>('../../locales/*/*.json', { eager: true })
export const resources: Catalogs = {}
for (const [file, module] of Object.entries(files)) {
  const [, lng, ns] = file.match(/locales\/(\w+)\/(\w[\w-]*)\.json$/)!
  ;(resources[lng] ??= {})[ns] = module.default
}

// One translator per language and namespace, made once (decisions 275, 315): the resources are
// bundled and never change while the server runs. Pages' components and loaders, actions and meta
// all translate with it, the same translator the browser uses, so the two can never disagree; a
// text missing in a language is taken from English here, as i18next's fallbackLng did.
const translators = new Map(
  supportedLanguages.map((lng) => [lng, translatorsOf(resources, lng, i18nOptions.fallbackLng)] as const),
)

// remix-i18next detects the language (DESIGN.md): the lang cookie, which holds a bare code its own
// cookie detector (it expects React Router's encoded cookies) cannot read, so it is read here; then
// ?lng=, then Accept-Language. The instance it makes for each request has no resources and is not
// used: pages translate with our translator of the language it found.
const [detectLanguage, detectedLanguage] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    findLocale: async ({ request }) => {
      const value = parseCookie(request.headers.get('cookie') ?? '')[languageCookie]
      return isLanguage(value) ? value : null
    },
  },
  i18next: { ...i18nOptions, initAsync: false },
})

/** A page's translations: the provider's value, with `t` for loaders, actions and meta. */
export type PageTranslations = Translations & {
  t: TFunction
  /** `t` of another namespace (and language, if one is named). */
  getFixedT: (lng: Language | null, ns: string) => TFunction
  used: Set<string>
}

const i18nextContext = createContext<PageTranslations | null>(null)

/**
 * Gives the request its language's translators, seen through an object of its own that holds what
 * is per page: the namespaces the page used (useTranslation records them there for UsedNamespaces).
 */
export const i18nextMiddleware: MiddlewareFunction<Response> = (args, next) =>
  detectLanguage(args, () => {
    const language = getLocale(args.context)
    const fixedT = translators.get(language)!
    args.context.set(i18nextContext, {
      language,
      fixedT,
      t: fixedT(defaultNS),
      getFixedT: (lng, ns) => (lng ? translators.get(lng)! : fixedT)(ns),
      used: new Set<string>(),
    })
    return next()
  })

export const getLocale = (context: Readonly<RouterContextProvider>) => detectedLanguage(context) as Language

export function getInstance(context: Readonly<RouterContextProvider>) {
  const instance = context.get(i18nextContext)
  if (!instance) throw new Error('i18nextMiddleware has not run for this request')
  return instance
}
