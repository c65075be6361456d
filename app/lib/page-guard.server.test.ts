import { describe, expect, test } from 'vitest'
import { isRefusal } from './errors'
import { guardPageRequest, isCrossSite } from './page-guard.server'

// The one guard every page request that is not GET or HEAD passes (issue 14, items 5 and 6). The
// HTTP tests (tests/integration/page-guards.test.ts) drive it through every action route.
const own = 'http://127.0.0.1:3000'
const publicUrl = 'https://workneer.example'
const sites = [own, publicUrl]
const req = (method: string, headers: Record<string, string> = {}, body?: BodyInit) =>
  new Request(`${own}/auth/login`, { method, headers, body })

describe('isCrossSite', () => {
  test.each([
    ['POST', { origin: 'https://evil.example' }],
    ['POST', { origin: 'null' }],
    ['POST', { origin: 'not a url' }],
    ['POST', { origin: 'https://workneer.example.evil.example' }],
    ['POST', { origin: 'http://workneer.example' }],
    ['POST', { origin: 'https://127.0.0.1:3000' }],
    ['POST', { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }],
    ['POST', { 'sec-fetch-site': 'cross-site' }],
    ['POST', { 'sec-fetch-site': 'same-site' }],
    ['PUT', { origin: 'https://evil.example' }],
    ['DELETE', { 'sec-fetch-site': 'cross-site' }],
    ['PATCH', { origin: 'https://evil.example' }],
  ])('refuses %s with %j', (method, headers) => {
    expect(isCrossSite(req(method, headers), sites)).toBe(true)
  })

  test.each([
    ['POST', { origin: own }],
    ['POST', { origin: publicUrl }],
    ['POST', { origin: 'HTTPS://WORKNEER.EXAMPLE:443' }],
    ['POST', { origin: own, 'sec-fetch-site': 'cross-site' }],
    ['POST', { 'sec-fetch-site': 'same-origin' }],
    ['POST', { 'sec-fetch-site': 'none' }],
    ['POST', {}],
    ['GET', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
    ['HEAD', { 'sec-fetch-site': 'cross-site' }],
  ])('lets %s with %j through', (method, headers) => {
    expect(isCrossSite(req(method, headers), sites)).toBe(false)
  })

  test('without PUBLIC_URL only the address the request came in on is the site', () => {
    expect(isCrossSite(req('POST', { origin: publicUrl }), [own, undefined])).toBe(true)
    expect(isCrossSite(req('POST', { origin: own }), [own, undefined])).toBe(false)
  })
})

describe('guardPageRequest', () => {
  test('a cross-site request goes on without its body and its Origin, refused', async () => {
    const guarded = guardPageRequest(
      req(
        'POST',
        {
          origin: 'https://evil.example',
          cookie: 'lang=de',
          'content-type': 'application/x-www-form-urlencoded',
        },
        'lang=ru',
      ),
      sites,
    )
    expect(guarded.refused).toBe('crossSite')
    expect(guarded.request.method).toBe('POST')
    expect(guarded.request.body).toBeNull()
    expect(guarded.request.headers.has('origin')).toBe(false)
    expect(guarded.request.headers.get('cookie')).toBe('lang=de')
  })

  const statusOf = async (request: Request) => {
    const guarded = guardPageRequest(request, sites)
    expect(guarded.refused).toBeNull()
    try {
      await guarded.request.formData()
      return 200
    } catch (error) {
      // What React Router renders as the status page: data({ refusal }, { status }).
      const thrown = error as { data?: unknown; init?: { status?: number } }
      expect(isRefusal(thrown.data), String(error)).toBe(true)
      return thrown.init?.status
    }
  }

  test.each([
    [415, { 'content-type': 'application/json' }, '{"a":1}'],
    [415, { 'content-type': 'text/plain' }, 'a=1'],
    [415, {}, 'a=1'],
    [
      400,
      { 'content-type': 'multipart/form-data' },
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
    ],
    [
      400,
      { 'content-type': 'multipart/form-data; boundary=x' },
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1',
    ],
    [400, { 'content-type': 'multipart/form-data; boundary=x' }, ''],
    [
      200,
      { 'content-type': 'multipart/form-data; boundary=x' },
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
    ],
    [200, { 'content-type': 'application/x-www-form-urlencoded' }, 'a=%zz&b'],
    [200, { 'content-type': 'Application/X-WWW-Form-Urlencoded; charset=UTF-8' }, 'a=1'],
  ])('formData() answers %i for %j', async (status, headers, body) => {
    expect(await statusOf(req('POST', headers, body))).toBe(status)
  })

  test('a body that fails for another reason (cut off by a limit) keeps its own error', async () => {
    const cut = new Error('payload too large')
    const body = new ReadableStream({ pull: (controller) => controller.error(cut) })
    const request = new Request(`${own}/x`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      duplex: 'half',
    } as RequestInit)
    await expect(guardPageRequest(request, sites).request.formData()).rejects.toBe(cut)
  })
})
