import { parseCookie } from 'cookie'
import { createInstance, type i18n as I18n } from 'i18next'
import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { createI18nextMiddleware } from 'remix-i18next'
import { initReactI18next } from 'react-i18next'
import {
  fallbackLanguage,
  i18nOptions,
  isLanguage,
  languageCookie,
  supportedLanguages,
  namespacesOf,
  type Language,
} from '~/lib/i18n'

// Every namespace file of every language, bundled into the server build.
const files = import.meta.glob<{ default: Record<string, unknown> }>('../../locales/*/*.json', {
  eager: true,
})
export const resources: Record<string, Record<string, Record<string, unknown>>> = {}
for (const [file, module] of Object.entries(files)) {
  const [, lng, ns] = file.match(/locales\/(\w+)\/(\w[\w-]*)\.json$/)!
  ;(resources[lng] ??= {})[ns] = module.default
}

// One i18next instance per language, made once (decision 275): the resources are bundled and never
// change while the server runs, and nothing on the server changes an instance's language. What an
// instance learns as pages use it (plural rules, number and date formats, fixed t functions) then
// serves every later page, instead of being learnt again by an instance made for each request.
const instances = new Map<Language, I18n>(
  supportedLanguages.map((lng) => {
    const instance = createInstance({
      ...i18nOptions,
      ns: namespacesOf(Object.keys(files)),
      resources,
      lng,
      initAsync: false,
    })
    void instance.use(initReactI18next).init()
    return [lng, instance]
  }),
)

// remix-i18next detects the language (DESIGN.md): the lang cookie, which holds a bare code its own
// cookie detector (it expects React Router's encoded cookies) cannot read, so it is read here; then
// ?lng=, then Accept-Language. The instance it makes for each request has no resources and is not
// used: pages translate with the shared instance of the language it found.
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

const i18nextContext = createContext<I18n | null>(null)

/**
 * Gives the request its language's instance, seen through an object of its own that holds what is
 * per page: the namespaces the page used (react-i18next's useTranslation records them there for
 * UsedNamespaces).
 */
export const i18nextMiddleware: MiddlewareFunction<Response> = (args, next) =>
  detectLanguage(args, () => {
    const own = Object.create(instances.get(getLocale(args.context))!) as I18n
    own.reportNamespaces = undefined as unknown as I18n['reportNamespaces']
    args.context.set(i18nextContext, own)
    return next()
  })

export const getLocale = (context: Readonly<RouterContextProvider>) => detectedLanguage(context) as Language

export function getInstance(context: Readonly<RouterContextProvider>) {
  const instance = context.get(i18nextContext)
  if (!instance) throw new Error('i18nextMiddleware has not run for this request')
  return instance
}
