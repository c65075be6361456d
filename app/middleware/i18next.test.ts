import { describe, expect, it } from 'vitest'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { I18nextProvider, useTranslation } from 'react-i18next'
import type { i18n as I18n } from 'i18next'
import { RouterContextProvider } from 'react-router'
import { getInstance, getLocale, i18nextMiddleware } from './i18next'

// Decision 275: one i18next instance per language, shared by every request; what is per page (the
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

// A page's render translating with `ns`, as a route's component does (react-i18next records the namespace).
function renderWith(i18n: I18n, ns: string) {
  function Page() {
    return useTranslation(ns).t('title')
  }
  renderToString(createElement(I18nextProvider, { i18n }, createElement(Page)))
}
const used = (i18n: I18n) => i18n.reportNamespaces?.getUsedNamespaces() ?? []

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
    renderWith(first.i18n, 'projects')
    renderWith(second.i18n, 'chat')
    expect(used(first.i18n)).toEqual(['projects'])
    expect(used(second.i18n)).toEqual(['chat'])
    expect(used((await pageFor({ cookie: 'lang=it' })).i18n)).toEqual([])
  })
})
