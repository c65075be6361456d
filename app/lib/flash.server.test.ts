import { describe, expect, test } from 'vitest'
import { parseSetCookie } from 'cookie'
import { pageOf, readFlash, redirectWithFlash } from './flash.server'

// Decision 229: a flash notice is shown by the page it was meant for, and a revalidation that a hub
// push triggers between the redirect and that page's load (in this tab or another) cannot take it.

/** A browser's cookie jar, as far as the flash cookie goes: Set-Cookie in, Cookie out. */
function jar() {
  const cookies = new Map<string, string>()
  return {
    take(setCookie: string | null) {
      if (!setCookie) return
      const c = parseSetCookie(setCookie)
      if (c.maxAge === 0 || !c.value) cookies.delete(c.name)
      else cookies.set(c.name, c.value)
    },
    request(url: string) {
      return new Request(`http://app.test${url}`, {
        headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      })
    },
    /** What a page's layout loader shows for `url`, with the cookie it answers with taken in. */
    load(url: string) {
      const { notice, setCookie } = readFlash(this.request(url))
      this.take(setCookie)
      return notice
    },
  }
}

const saved = { kind: 'success' as const, message: 'Saved.' }

describe('flash notices', () => {
  test('a revalidation of another page (a hub push in this or another tab) leaves the notice to its page', () => {
    const browser = jar()
    browser.take(redirectWithFlash('/payouts', saved).headers.get('set-cookie'))
    expect(browser.load('/dashboard.data?_routes=routes%2Flayout')).toBeNull()
    expect(browser.load('/notifications.data')).toBeNull()
    expect(browser.load('/payouts.data')).toMatchObject(saved)
  })

  test('requests for the page that race (a revalidation, the restarted load) all show the same notice', () => {
    const browser = jar()
    browser.take(redirectWithFlash('/payouts', saved).headers.get('set-cookie'))
    const first = browser.load('/payouts.data?_routes=routes%2Flayout')
    const second = browser.load('/payouts.data')
    const document = browser.load('/payouts')
    expect(first).toMatchObject(saved)
    expect(second).toEqual(first)
    expect(document).toEqual(first)
  })

  test('the notice is for its path and query; a hash is not sent by browsers and is ignored', () => {
    const browser = jar()
    browser.take(redirectWithFlash('/ticketSupport/7?tab=messages#m-12', saved).headers.get('set-cookie'))
    expect(browser.load('/ticketSupport/7')).toBeNull()
    expect(browser.load('/ticketSupport/7?tab=messages')).toMatchObject(saved)
  })

  test('once shown, it lives a few seconds, then the page shows none', () => {
    const shown = readFlash(jar().request('/x'))
    expect(shown).toEqual({ notice: null, setCookie: null })
    const browser = jar()
    browser.take(redirectWithFlash('/x', saved).headers.get('set-cookie'))
    const { setCookie } = readFlash(browser.request('/x'))
    expect(parseSetCookie(setCookie!).maxAge).toBeLessThanOrEqual(5)
  })

  test('a cookie that is not a notice is cleared', () => {
    const { notice, setCookie } = readFlash(
      new Request('http://app.test/', { headers: { cookie: 'flash=bm90IGpzb24' } }),
    )
    expect(notice).toBeNull()
    expect(parseSetCookie(setCookie!).maxAge).toBe(0)
  })

  test('pageOf names a page as the data requests of React Router do', () => {
    expect(pageOf('/a/b.data?_routes=x&q=1')).toBe('/a/b?q=1')
    expect(pageOf('/_.data')).toBe('/')
    expect(pageOf('http://h/p?x=1#frag')).toBe('/p?x=1')
  })
})
