import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createPageCache } from './page-cache.ts'
import { newNonce } from './security-headers.ts'

// A page as entry.server.tsx answers it: the same fresh nonce in the CSP header and the scripts
// (`nonce` makes another kind of nonce), with text in more than one byte per character.
function renderer(
  options: {
    status?: number
    setCookie?: boolean
    mark?: 'visitor' | 'own' | null
    nonce?: () => string
  } = {},
) {
  let renders = 0
  const render = async () => {
    renders++
    const nonce = (options.nonce ?? newNonce)()
    const headers = new Headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `script-src 'self' 'nonce-${nonce}'`,
    })
    if (options.setCookie) headers.set('set-cookie', 'flash=; Max-Age=0')
    const mark = options.mark === undefined ? 'visitor' : options.mark
    if (mark) headers.set('x-workneer-kept-page', mark)
    return new Response(
      `<p>render ${renders}</p><script nonce="${nonce}"></script><p>Petrović · Русский</p><style nonce="${nonce}"></style>`,
      { status: options.status ?? 200, headers },
    )
  }
  return { render, renders: () => renders }
}

const visit = (path = '/projects', headers: Record<string, string> = {}) =>
  new Request(`http://127.0.0.1${path}`, { headers })
const nonceOf = (response: Response) =>
  response.headers.get('content-security-policy')!.match(/'nonce-([^']+)'/)![1]

describe('page cache (pages kept for a few seconds)', () => {
  test('a visitor page is rendered once, and each answer carries its own nonce in header and body alike', async () => {
    const cache = createPageCache({ seconds: 5 })
    const page = renderer()
    const first = await cache.serve(visit(), page.render)
    const second = await cache.serve(visit(), page.render)
    expect(page.renders()).toBe(1)
    for (const answer of [first, second]) expect(answer.headers.has('x-workneer-kept-page')).toBe(false)
    const [a, b] = [nonceOf(first), nonceOf(second)]
    expect(a).not.toBe(b)
    expect(await first.text()).toContain(`nonce="${a}"`)
    const body = await second.text()
    expect(body).toBe(
      `<p>render 1</p><script nonce="${b}"></script><p>Petrović · Русский</p><style nonce="${b}"></style>`,
    )
  })

  test('a page whose nonce is not as long as a fresh one is not kept: there is no room to write another over it', async () => {
    const cache = createPageCache({ seconds: 5 })
    const page = renderer({ nonce: () => `short${Math.random().toString(36).slice(2, 6)}` })
    const [first, second] = [await cache.serve(visit(), page.render), await cache.serve(visit(), page.render)]
    expect(page.renders()).toBe(2)
    expect(await second.text()).toContain(`nonce="${nonceOf(second)}"`)
    expect(nonceOf(first)).not.toBe(nonceOf(second))
  })

  test('a flash notice or any cookie but the language and the session means the page is rendered for that request', async () => {
    const cache = createPageCache({ seconds: 5 })
    const page = renderer()
    for (const cookie of ['lang=de; flash=x', 'session=abc; oidc_state=y', 'other=1']) {
      await cache.serve(visit('/', { cookie }), page.render)
      await cache.serve(visit('/', { cookie }), page.render)
    }
    expect(page.renders()).toBe(6)
    // The language alone is kept, apart from other languages.
    await cache.serve(visit('/', { cookie: 'lang=de' }), page.render)
    await cache.serve(visit('/', { cookie: 'lang=de' }), page.render)
    await cache.serve(visit('/', { cookie: 'lang=it' }), page.render)
    expect(page.renders()).toBe(8)
  })

  test('a signed-in page is kept for its session only, and an own page never for visitors', async () => {
    const cache = createPageCache({ seconds: 5 })
    const own = renderer({ mark: 'own' })
    const alice = { cookie: 'session=alice; lang=es' }
    const first = await cache.serve(visit('/freelancers?search=x', alice), own.render)
    const again = await cache.serve(visit('/freelancers?search=x', alice), own.render)
    expect(own.renders()).toBe(1)
    expect(await again.text()).toBe((await first.text()).replaceAll(nonceOf(first), nonceOf(again)))
    // Another session, the same session in another language, and a visitor each get their own render.
    await cache.serve(visit('/freelancers?search=x', { cookie: 'session=bob; lang=es' }), own.render)
    await cache.serve(visit('/freelancers?search=x', { cookie: 'session=alice; lang=de' }), own.render)
    expect(own.renders()).toBe(3)
    await cache.serve(visit('/freelancers?search=x'), own.render)
    await cache.serve(visit('/freelancers?search=x'), own.render)
    expect(own.renders()).toBe(5)
    // A visitor page is kept for a session too, apart from visitors.
    const open = renderer()
    await cache.serve(visit('/projects', alice), open.render)
    await cache.serve(visit('/projects', alice), open.render)
    await cache.serve(visit('/projects'), open.render)
    expect(open.renders()).toBe(2)
  })

  test('a reload (Cache-Control: no-cache or max-age=0) renders afresh and keeps the fresh page', async () => {
    const cache = createPageCache({ seconds: 5 })
    const page = renderer({ mark: 'own' })
    const session = { cookie: 'session=alice' }
    await cache.serve(visit('/projects/client', session), page.render)
    for (const fresh of [
      { 'cache-control': 'no-cache' },
      { 'cache-control': 'max-age=0' },
      { pragma: 'no-cache' },
    ] as Array<Record<string, string>>) {
      const answer = await cache.serve(visit('/projects/client', { ...session, ...fresh }), page.render)
      expect(await answer.text()).toContain(`render ${page.renders()}`)
    }
    expect(page.renders()).toBe(4)
    const kept = await cache.serve(visit('/projects/client', session), page.render)
    expect(page.renders()).toBe(4)
    expect(await kept.text()).toContain('render 4')
    // Reloads arriving together each render (they do not wait for one another's render).
    await Promise.all(
      [1, 2, 3].map(() =>
        cache.serve(visit('/projects/client', { ...session, 'cache-control': 'no-cache' }), page.render),
      ),
    )
    expect(page.renders()).toBe(7)
  })

  test('answers that set a cookie, are not 200, are not GET or whose route is not a visitor page are never kept', async () => {
    const cache = createPageCache({ seconds: 5 })
    for (const page of [renderer({ setCookie: true }), renderer({ status: 404 }), renderer({ mark: null })]) {
      await cache.serve(visit(), page.render)
      const again = await cache.serve(visit(), page.render)
      expect(page.renders()).toBe(2)
      expect(await again.text()).toContain('render 2')
      expect(again.headers.has('x-workneer-kept-page')).toBe(false)
    }
    const post = renderer()
    await cache.serve(new Request('http://127.0.0.1/contact-us', { method: 'POST', body: 'x' }), post.render)
    await cache.serve(new Request('http://127.0.0.1/contact-us', { method: 'POST', body: 'x' }), post.render)
    expect(post.renders()).toBe(2)
  })

  test('a write forgets every kept page, and a page rendered while a write happened is not kept', async () => {
    const cache = createPageCache({ seconds: 5 })
    const page = renderer()
    await cache.serve(visit(), page.render)
    cache.invalidate()
    await cache.serve(visit(), page.render)
    expect(page.renders()).toBe(2)
    const slow = async () => {
      const response = await page.render()
      cache.invalidate() // a write lands while this page renders
      return response
    }
    await cache.serve(visit('/faq'), slow)
    await cache.serve(visit('/faq'), page.render)
    expect(page.renders()).toBe(4)
  })

  test('kept pages expire after the configured seconds, and 0 turns the cache off', async () => {
    let clock = 1_000
    const cache = createPageCache({ seconds: 5, now: () => clock })
    const page = renderer()
    await cache.serve(visit(), page.render)
    clock += 4_999
    await cache.serve(visit(), page.render)
    expect(page.renders()).toBe(1)
    clock += 2
    await cache.serve(visit(), page.render)
    expect(page.renders()).toBe(2)
    const off = createPageCache({ seconds: 0 })
    await off.serve(visit(), page.render)
    await off.serve(visit(), page.render)
    expect(page.renders()).toBe(4)
  })

  test('visitors arriving during a render share it', async () => {
    const cache = createPageCache({ seconds: 5 })
    const page = renderer()
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.serve(visit(), page.render)))
    expect(page.renders()).toBe(1)
    expect(new Set(answers.map(nonceOf)).size).toBe(5)
  })
})

// A route's Response may have immutable headers (issue 14, item 6: a visitor opening a project's
// file got 500 because the cache took the mark off Response.redirect's headers). The cache must
// never change a Response it did not create, whatever kind it is and whichever path it takes.
describe('page cache with responses whose headers cannot change', () => {
  let server: http.Server
  let origin = ''
  beforeAll(async () => {
    // A real peer, so the answers are real fetch() results (immutable headers, a streamed body).
    server = http.createServer((req, res) => {
      const status = req.url === '/missing' ? 404 : 200
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'x-workneer-kept-page': 'visitor' })
      res.end(`<p>${req.url}</p>`)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const immutable = (make: () => Promise<Response> | Response) => async () => {
    const response = await make()
    expect(() => response.headers.set('x-probe', '1')).toThrow(TypeError)
    return response
  }

  test.each([
    ['a visitor GET', visit('/projects/files/7')],
    ['a signed-in GET', visit('/projects/files/7', { cookie: 'session=abc' })],
    ['a POST', new Request('http://127.0.0.1/projects/files/7', { method: 'POST' })],
    ['a reload', visit('/projects/files/7', { 'cache-control': 'no-cache' })],
  ])('Response.redirect passes through unchanged for %s', async (_, request) => {
    const cache = createPageCache({ seconds: 5 })
    const answer = await cache.serve(
      request,
      immutable(() =>
        Response.redirect('http://127.0.0.1/auth/login?redirectTo=%2Fprojects%2Ffiles%2F7', 302),
      ),
    )
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toBe(
      'http://127.0.0.1/auth/login?redirectTo=%2Fprojects%2Ffiles%2F7',
    )
  })

  test('a network error (Response.error) passes through as it is', async () => {
    const cache = createPageCache({ seconds: 5 })
    const answer = await cache.serve(
      visit('/x'),
      immutable(() => Response.error()),
    )
    expect(answer.type).toBe('error')
  })

  test('a fetch() result marked as a visitor page is kept, and no answer carries the mark', async () => {
    const cache = createPageCache({ seconds: 5 })
    let renders = 0
    const render = immutable(() => (renders++, fetch(`${origin}/page`)))
    const first = await cache.serve(visit('/page'), render)
    const second = await cache.serve(visit('/page'), render)
    expect(renders).toBe(1)
    for (const answer of [first, second]) {
      expect(answer.status).toBe(200)
      expect(answer.headers.has('x-workneer-kept-page')).toBe(false)
      expect(await answer.text()).toBe('<p>/page</p>')
    }
  })

  test.each([
    ['not found', '/missing', {}],
    ['for a request with another cookie', '/page', { cookie: 'flash=1' }],
    ['for a POST', '/page', {}],
  ])(
    'a marked fetch() result that is not kept (%s) loses its mark on a copy',
    async (kind, path, headers) => {
      const cache = createPageCache({ seconds: 5 })
      const request =
        kind === 'for a POST'
          ? new Request(`http://127.0.0.1${path}`, { method: 'POST' })
          : visit(path, headers)
      const answer = await cache.serve(
        request,
        immutable(() => fetch(`${origin}${path}`)),
      )
      expect(answer.headers.has('x-workneer-kept-page')).toBe(false)
      expect(await answer.text()).toBe(`<p>${path}</p>`)
    },
  )
  test("a session's data is read once until a write, a delivery elsewhere or the seconds pass; a read a write overtook is not kept", async () => {
    let clock = 0
    const cache = createPageCache({ seconds: 5, now: () => clock })
    let reads = 0
    const read = async () => ++reads
    expect(await cache.remember('user\nen\ttoken', read)).toBe(1)
    expect(await cache.remember('user\nen\ttoken', read)).toBe(1)
    expect(await cache.remember('user\nde\ttoken', read)).toBe(2)
    cache.invalidate()
    expect(await cache.remember('user\nen\ttoken', read)).toBe(3)
    cache.forget()
    expect(await cache.remember('user\nen\ttoken', read)).toBe(4)
    clock += 5001
    expect(await cache.remember('user\nen\ttoken', read)).toBe(5)
    // A write lands while the data is read: that answer is served once, never kept.
    const overtaken = await cache.remember('bell', async () => {
      cache.invalidate()
      return 'before the write'
    })
    expect(overtaken).toBe('before the write')
    expect(await cache.remember('bell', async () => 'after the write')).toBe('after the write')
    // A failed read keeps nothing; without seconds nothing is kept at all.
    await expect(cache.remember('messages', async () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    )
    expect(await cache.remember('messages', async () => 'up')).toBe('up')
    const off = createPageCache({ seconds: 0 })
    expect([await off.remember('k', read), await off.remember('k', read)]).toEqual([6, 7])
  })

  test('while a write or delivery holds the cache, data is read afresh and not kept; kept data goes at the start and the end', async () => {
    const cache = createPageCache({ seconds: 5 })
    let reads = 0
    const read = async () => ++reads
    expect(await cache.remember('bell', read)).toBe(1)
    const release = cache.hold()
    // A hub event sent from inside the delivery makes the page ask again: it must not get 1.
    expect(await cache.remember('bell', read)).toBe(2)
    expect(await cache.remember('bell', read)).toBe(3)
    const second = cache.hold()
    release()
    release()
    expect(await cache.remember('bell', read)).toBe(4)
    second()
    expect(await cache.remember('bell', read)).toBe(5)
    expect(await cache.remember('bell', read)).toBe(5)
  })
})
