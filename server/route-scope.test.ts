import path from 'node:path'
import { createRequestHandler, matchRoutes, RouterContextProvider, type ServerBuild } from 'react-router'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { branchBuild, createRouteScopedHandler, matchedPathname, routeTree } from './route-scope.ts'

// Decision 290: a request is handled by a build holding only its branch's routes. Whatever the
// address, that build must match exactly the routes the whole build matches, and answer the same.
// The app's own build (npm run build, which `npm test` runs first) is the subject.
let build: ServerBuild
beforeAll(async () => {
  build = (await import(
    path.resolve(import.meta.dirname, '../build/server/index.js')
  )) as unknown as ServerBuild
})

const ids = (routes: ServerBuild['routes'], pathname: string) =>
  matchRoutes(routeTree(routes), pathname, build.basename)?.map((m) => m.route.id) ?? null

/** An address for every route of the app (its parameters filled in), and the awkward ones. */
function addresses() {
  const full = (id: string): string => {
    const route = build.routes[id]!
    const own = (route.path ?? '').replace(/:\w+\??/g, '42').replace(/\*$/, 'some/where')
    return route.parentId ? `${full(route.parentId)}/${own}` : own
  }
  const every = Object.keys(build.routes).map((id) => `/${full(id)}`.replace(/\/+/g, '/'))
  return [
    ...new Set([
      ...every,
      '/',
      '/FAQ',
      '/faq/',
      '/projects/client/details/7/',
      '/no/such/page',
      '/%7Eodd%20name',
      '/blogs/%E2%82%AC',
    ]),
  ]
}

describe('a request handled with its branch only', () => {
  it('matches the same routes as the whole build, for every route of the app and odd addresses', () => {
    const checked = addresses()
    expect(checked.length).toBeGreaterThan(80)
    for (const pathname of checked) {
      const whole = ids(build.routes, pathname)
      expect(whole, pathname).not.toBeNull()
      expect(ids(branchBuild(build, whole!.at(-1)!).routes, pathname), pathname).toEqual(whole)
    }
  })

  it('keeps only the branch, in the routes and in the client manifest', () => {
    const branch = branchBuild(build, 'routes/faq')
    expect(Object.keys(branch.routes).sort()).toEqual(['root', 'routes/faq', 'routes/layout'])
    expect(Object.keys(branch.assets.routes).sort()).toEqual(['root', 'routes/faq', 'routes/layout'])
    expect(branch.assets.url).toBe(build.assets.url)
  })

  it('reads a data request’s address as React Router does', () => {
    expect(matchedPathname(new URL('http://x/_.data'))).toBe('/')
    expect(matchedPathname(new URL('http://x/projects/client.data?_routes=routes/layout'))).toBe(
      '/projects/client',
    )
    expect(matchedPathname(new URL('http://x/admin/_.data'))).toBe('/admin/')
    expect(matchedPathname(new URL('http://x/faq'))).toBe('/faq')
  })

  // Without Workneer's server around it (as @react-router/serve runs the build) pages that read the
  // API fail; the failure must be the same page too.
  it('answers documents, data requests and failures byte for byte as the whole build does', async () => {
    // React Router reports each failed page on the console: expected here, and counted below.
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {})
    const whole = createRequestHandler(build, 'production')
    const scoped = createRouteScopedHandler(build, 'production')
    const answer = async (handler: typeof whole, url: string) => {
      const response = await handler(new Request(url), new RouterContextProvider())
      const nonce = /nonce="([^"]+)"/.exec(await response.clone().text())?.[1]
      const text = await response.text()
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        text: nonce ? text.replaceAll(nonce, 'NONCE') : text,
      }
    }
    const statuses: number[] = []
    for (const url of [
      '/_bench/trivial',
      '/_bench/trivial.data',
      '/_bench/trivial?lng=de',
      '/faq',
      '/projects/client',
      '/no/such/page',
      '/_.data',
    ]) {
      const [a, b] = [
        await answer(whole, `http://127.0.0.1${url}`),
        await answer(scoped, `http://127.0.0.1${url}`),
      ]
      expect(b, url).toEqual(a)
      statuses.push(a.status)
    }
    expect(statuses).toEqual([200, 200, 200, 500, 302, 302, 500])
    expect(reported.mock.calls.length).toBeGreaterThan(0)
    reported.mockRestore()
  })
})
