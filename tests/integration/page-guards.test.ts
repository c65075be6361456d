import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import routes from '../../app/routes.ts'
import { startPageServer, type PageServer } from './page-server.ts'

// Issue 14, items 2, 5 and 6 and private pages, through the built server over HTTP: what a browser
// (or another site driving one) sends, and what comes back.
let server: PageServer
let base = ''
let session = ''
beforeAll(async () => {
  server = await startPageServer()
  base = server.base
  session = await server.signIn()
}, 90_000)
afterAll(() => server?.stop())

type Entry = { file: string; path?: string; index?: boolean; children?: Entry[] }

/** Every route of app/routes.ts whose module has an action, with a path that reaches it. */
function actionRoutes(
  entries: Entry[] = routes as Entry[],
  parent = '',
): Array<{ path: string; file: string }> {
  return entries.flatMap((entry) => {
    const joined = entry.path ? `${parent}/${entry.path}` : parent
    const own = fs.readFileSync(path.resolve(import.meta.dirname, '../../app', entry.file), 'utf8')
    const here =
      (entry.index || entry.path) &&
      /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b/.test(own)
        ? [{ path: joined.replace(/:\w+/g, '1').replace('*', 'anything') || '/', file: entry.file }]
        : []
    return [...here, ...actionRoutes(entry.children ?? [], joined)]
  })
}

const post = (url: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}) =>
  fetch(`${base}${url}`, {
    method: 'POST',
    redirect: 'manual',
    body: init.body ?? new URLSearchParams({ probe: '1' }),
    headers: init.headers,
  })

/** Where a browser would go with this Location, from a page of the site. */
function staysOnSite(location: string | null) {
  expect(location).toBeTruthy()
  expect(new URL(location!, `${base}/auth/login`).origin).toBe(base)
  expect(location).toMatch(/^\/(?![/\\])/)
}

const nasty = [
  '/.//evil.example',
  '/..//evil.example',
  '/%2e//evil.example',
  '/a/..//evil.example',
  '/%2e%2e/%2e%2e//evil.example',
  '/\t/evil.example',
  '/\\evil.example',
  '//evil.example',
  'https:evil.example',
  'https://evil.example/',
]

describe('redirectTo never leads off the site', { timeout: 60_000 }, () => {
  test.each(nasty)('the login page, signed in, with %j', async (target) => {
    const response = await fetch(`${base}/auth/login?${new URLSearchParams({ redirectTo: target })}`, {
      headers: { cookie: session },
      redirect: 'manual',
    })
    expect(response.status).toBe(302)
    staysOnSite(response.headers.get('location'))
  })

  test.each(nasty)('set-language with %j', async (target) => {
    const response = await post('/set-language', {
      headers: { origin: base },
      body: new URLSearchParams({ lang: 'de', redirectTo: target }),
    })
    expect(response.status).toBe(302)
    staysOnSite(response.headers.get('location'))
  })

  test.each(nasty)('the newsletter with %j', async (target) => {
    const response = await post('/newsletter', {
      headers: { origin: base },
      body: new URLSearchParams({ address: 'not an address', redirectTo: target }),
    })
    expect(response.status).toBe(302)
    staysOnSite(response.headers.get('location'))
  })

  test('a local target is still where signing in leads', async () => {
    const response = await fetch(
      `${base}/auth/login?redirectTo=${encodeURIComponent('/projects/client?page=2')}`,
      { headers: { cookie: session }, redirect: 'manual' },
    )
    expect(response.headers.get('location')).toBe('/projects/client?page=2')
  })
})

describe('one cross-site check for every page action', { timeout: 60_000 }, () => {
  const actions = actionRoutes()

  test('the route config has the action routes this check is about', () => {
    const paths = actions.map((a) => a.path)
    for (const known of [
      '/auth/login',
      '/auth/logout',
      '/set-language',
      '/newsletter',
      '/notifications/1/read',
      '/projects/create',
      '/contact-us',
    ])
      expect(paths).toContain(known)
  })

  const crossSite: Array<[string, Record<string, string>]> = [
    ['another origin', { origin: 'https://evil.example' }],
    ['an opaque origin', { origin: 'null' }],
    ['the same host on another scheme', { origin: base.replace('http:', 'https:') }],
    ['no Origin, Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['no Origin, Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
  ]

  test.each(crossSite)(
    'every action route refuses a form from %s with the status page',
    async (_, headers) => {
      for (const { path: url } of actions) {
        const response = await post(url, { headers: { ...headers, cookie: session } })
        expect(response.status, url).toBe(403)
        expect(response.headers.get('content-type'), url).toMatch(/^text\/html/)
        expect(await response.text(), url).toContain('Request refused')
      }
    },
  )

  test.each([
    ['its own origin', { origin: 'ORIGIN' }],
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
    ['no Origin and no Sec-Fetch-Site (not a browser)', {}],
  ])('every action route takes a form from %s', async (_, headers) => {
    for (const { path: url } of actions) {
      const response = await post(url, {
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'ORIGIN' ? base : v])),
      })
      expect(response.status, url).not.toBe(403)
      expect(response.status, url).toBeLessThan(500)
    }
  })

  test('a refused logout leaves the session working; a same-origin one ends it', async () => {
    const own = await server.signIn()
    expect(
      (await post('/auth/logout', { headers: { origin: 'https://evil.example', cookie: own } })).status,
    ).toBe(403)
    expect((await fetch(`${base}/profile`, { headers: { cookie: own }, redirect: 'manual' })).status).toBe(
      200,
    )
    expect((await post('/auth/logout', { headers: { origin: base, cookie: own } })).status).toBe(302)
    expect((await fetch(`${base}/profile`, { headers: { cookie: own }, redirect: 'manual' })).status).toBe(
      302,
    )
  })

  test("a refused language change sets no cookie, in the visitor's language", async () => {
    const response = await post('/set-language', {
      headers: { origin: 'https://evil.example', cookie: 'lang=de' },
      body: new URLSearchParams({ lang: 'ru' }),
    })
    expect(response.status).toBe(403)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await response.text()).toContain('Anfrage abgelehnt')
  })

  test('a data request (JavaScript on) from another site is refused too', async () => {
    const response = await post('/auth/login.data', { headers: { origin: 'https://evil.example' } })
    expect(response.status).toBe(403)
  })
})

describe('a page action answers 4xx for a body that is not a form', { timeout: 60_000 }, () => {
  const boundary = '----workneer'
  const bodies: Array<[string, number, string, Record<string, string>, string]> = [
    [
      'JSON',
      415,
      'only accepts forms',
      { 'content-type': 'application/json' },
      '{"email":"a@b.c","password":"x"}',
    ],
    ['plain text', 415, 'only accepts forms', { 'content-type': 'text/plain' }, 'email=a@b.c'],
    ['no content type', 415, 'only accepts forms', {}, 'email=a@b.c'],
    [
      'multipart without a boundary',
      400,
      'arrived incomplete',
      { 'content-type': 'multipart/form-data' },
      `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--${boundary}--\r\n`,
    ],
    [
      'truncated multipart',
      400,
      'arrived incomplete',
      { 'content-type': `multipart/form-data; boundary=${boundary}` },
      `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c`,
    ],
    [
      'multipart with a wrong boundary',
      400,
      'arrived incomplete',
      { 'content-type': 'multipart/form-data; boundary=other' },
      `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--${boundary}--\r\n`,
    ],
  ]
  const targets = ['/auth/login', '/auth/forgot-password', '/contact-us', '/set-language', '/newsletter']

  test.each(bodies)('%s: answered %i with the status page', async (_, status, text, headers, body) => {
    for (const url of targets) {
      const response = await fetch(`${base}${url}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: base, ...headers },
        body: new TextEncoder().encode(body),
      })
      expect(response.status, url).toBe(status)
      expect(await response.text(), url).toContain(text)
    }
  })

  test('a data request (JavaScript on) gets the status too', async () => {
    const response = await fetch(`${base}/auth/login.data`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(response.status).toBe(415)
  })
})

describe('private pages and redirects', { timeout: 60_000 }, () => {
  test('a visitor opening a project file is sent to log in, not answered 500', async () => {
    // Twice: the second visit may meet the page cache, which once changed the redirect's headers.
    for (const headers of [{}, {}, { cookie: 'lang=de' }, { cookie: 'session=expired' }] as Array<
      Record<string, string>
    >) {
      const response = await fetch(`${base}/projects/files/${server.fileId}`, { redirect: 'manual', headers })
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe(
        `/auth/login?redirectTo=%2Fprojects%2Ffiles%2F${server.fileId}`,
      )
    }
  })

  test('whatever is rendered for a signed-in person is private, no-store, kept copies too', async () => {
    for (const url of [
      '/',
      '/',
      '/projects/client',
      '/projects/client',
      '/profile',
      '/blogs',
      '/_root.data',
      '/auth/not-found',
      '/auth/login',
    ]) {
      const response = await fetch(`${base}${url}`, { headers: { cookie: session }, redirect: 'manual' })
      expect(response.headers.get('cache-control'), url).toBe('private, no-store')
      await response.body?.cancel()
    }
    // A file the API answers passes with the API's own policy (private, no-store since the request guard
    // work, decision 084); an answer that chose another private policy keeps it (the suggestions').
    const missing = await fetch(`${base}/projects/files/123456`, { headers: { cookie: session } })
    expect(missing.headers.get('cache-control')).toBe('private, no-store')
    const suggestions = await fetch(`${base}/search/suggest?term=concrete`, { headers: { cookie: session } })
    expect(suggestions.headers.get('cache-control')).toBe('private, max-age=60')
  })

  test("a visitor's browsing pages are public for a few seconds, each answer with a nonce of its own", async () => {
    for (const url of ['/', '/', '/projects', '/blogs', '/faq']) {
      const response = await fetch(`${base}${url}`)
      expect(response.status, url).toBe(200)
      expect(response.headers.get('cache-control'), url).toBe('public, max-age=0, s-maxage=5')
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
      const scripts = [...(await response.text()).matchAll(/<script\b[^>]*\bnonce="([^"]+)"/g)].map(
        (m) => m[1],
      )
      expect(scripts.length, url).toBeGreaterThan(0)
      expect(new Set(scripts), url).toEqual(new Set([nonce]))
    }
    const [a, b] = await Promise.all([fetch(`${base}/`), fetch(`${base}/`)])
    expect(a.headers.get('content-security-policy')).not.toBe(b.headers.get('content-security-policy'))
    // A page with a form of one's own, and an answer that ends a stale session, say nothing or private.
    expect((await fetch(`${base}/auth/login`)).headers.get('cache-control')).toBeNull()
    const stale = await fetch(`${base}/`, { headers: { cookie: 'session=expired' } })
    expect(stale.headers.get('cache-control')).toBe('private, no-store')
  })
})
