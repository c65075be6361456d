import { describe, expect, it } from 'vitest'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { RouterContextProvider } from 'react-router'
import { TranslationsProvider, useTranslation } from '~/lib/translations'
import { getInstance, getLocale, i18nextMiddleware, type PageTranslations } from './i18next'

// Decisions 275, 315: one translator per language, shared by every request; what is per page (the
// namespaces it used) must stay on the request's own view of it.
async function pageFor(headers: Record<string, string>, path = '/') {
  const context = new RouterContextProvider()
  const request = new Request(`http://workneer.test${path}`, { headers })
  await i18nextMiddleware(
    { request, context, params: {}, pattern: '/', url: new URL(request.url) } as never,
    async () => new Response(),
  )
  return { locale: getLocale(context), i18n: getInstance(context) }
}

// A page's render translating with `ns`, as a route's component does (useTranslation records the namespace).
function renderWith(i18n: PageTranslations, ns: string) {
  function Page() {
    return useTranslation(ns).t('list.title')
  }
  return renderToString(createElement(TranslationsProvider, { value: i18n, children: createElement(Page) }))
}
const used = (i18n: PageTranslations) => [...i18n.used]

describe('the i18next middleware', () => {
  it('picks the cookie, then ?lng=, then Accept-Language, then English', async () => {
    expect((await pageFor({ cookie: 'lang=ru', 'accept-language': 'de' }, '/?lng=it')).locale).toBe('ru')
    expect((await pageFor({ 'accept-language': 'de' }, '/?lng=it')).locale).toBe('it')
    expect((await pageFor({ 'accept-language': 'es-ES,es;q=0.9' })).locale).toBe('es')
    expect((await pageFor({ cookie: 'lang=xx', 'accept-language': 'fr' })).locale).toBe('en')
  })

  it("translates in the request's language, whatever language the request before it had", async () => {
    const de = await pageFor({ cookie: 'lang=de' })
    const es = await pageFor({ cookie: 'lang=es' })
    expect(de.i18n.t('auth:login.title')).toBe('Anmelden')
    expect(es.i18n.t('auth:login.title')).toBe('Iniciar sesión')
    expect(de.i18n.language).toBe('de')
  })

  it("keeps each page's used namespaces to that page, in one language", async () => {
    const first = await pageFor({ cookie: 'lang=it' })
    const second = await pageFor({ cookie: 'lang=it' })
    expect(renderWith(first.i18n, 'projects')).toBe('Trova progetti')
    renderWith(second.i18n, 'chat')
    expect(used(first.i18n)).toEqual(['projects'])
    expect(used(second.i18n)).toEqual(['chat'])
    expect(used((await pageFor({ cookie: 'lang=it' })).i18n)).toEqual([])
  })
})
