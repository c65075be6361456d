import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { appContext, type AppDeps } from './context'
import { languageCookieHeader, secureCookies, sessionCookie } from './session.server'

// Decision 261: the session and language cookies are httpOnly and SameSite=Lax always, and Secure in production
// unless the site is plain http on loopback (the end-to-end servers, a trial run).
function contextFor(mode: 'production' | 'development', publicUrl: string) {
  const context = new RouterContextProvider()
  context.set(appContext, { mode, publicUrl } as AppDeps)
  return context
}
const request = (url: string) => new Request(url)

describe('secure cookies', () => {
  it('are Secure behind a TLS proxy on loopback when PUBLIC_URL is https, and on any other host', () => {
    expect(
      secureCookies(
        contextFor('production', 'https://workneer.example'),
        request('http://127.0.0.1:3000/auth/login'),
      ),
    ).toBe(true)
    expect(
      secureCookies(contextFor('production', 'http://localhost:3000'), request('http://app.internal:3000/')),
    ).toBe(true)
    expect(
      secureCookies(contextFor('production', 'http://localhost:3000'), request('https://127.0.0.1/')),
    ).toBe(true)
  })

  it('are not Secure for a plain-http site on loopback, nor in development', () => {
    expect(
      secureCookies(contextFor('production', 'http://127.0.0.1:3670'), request('http://127.0.0.1:3670/')),
    ).toBe(false)
    expect(
      secureCookies(
        contextFor('development', 'https://workneer.example'),
        request('https://workneer.example/'),
      ),
    ).toBe(false)
  })

  it('write the session cookie httpOnly and SameSite=Lax, with Secure where it belongs', () => {
    const expires = new Date(Date.now() + 3600_000).toISOString()
    const secure = sessionCookie(
      contextFor('production', 'https://workneer.example'),
      request('http://127.0.0.1:3000/'),
      'token',
      expires,
    )
    expect(secure).toMatch(/HttpOnly/)
    expect(secure).toMatch(/SameSite=Lax/)
    expect(secure).toMatch(/Secure/)
    expect(
      sessionCookie(
        contextFor('production', 'http://127.0.0.1:3000'),
        request('http://127.0.0.1:3000/'),
        'token',
        expires,
      ),
    ).not.toMatch(/Secure/)
  })

  it('write the language cookie the same way: httpOnly (nothing in the browser reads it), Secure where it belongs', () => {
    const secure = languageCookieHeader(
      contextFor('production', 'https://workneer.example'),
      request('http://127.0.0.1:3000/'),
      'de',
    )
    expect(secure).toMatch(/^lang=de;/)
    expect(secure).toMatch(/HttpOnly/)
    expect(secure).toMatch(/SameSite=Lax/)
    expect(secure).toMatch(/Secure/)
    expect(
      languageCookieHeader(
        contextFor('production', 'http://127.0.0.1:3000'),
        request('http://127.0.0.1:3000/'),
        'de',
      ),
    ).not.toMatch(/Secure/)
  })
})
