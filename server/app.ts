import { createRequestListener, type ClientAddress } from '@remix-run/node-fetch-server'
import { RouterContextProvider } from 'react-router'
import * as build from 'virtual:react-router/server-build'
import { appContext, type AppDeps } from '../app/lib/context.ts'
import { guardPageRequest, refusalContext } from '../app/lib/page-guard.server.ts'
import type { NodeListener } from './app-loader.ts'
import { CLIENT_ADDRESS_HEADER } from './http/client-address.ts'
import { createRouteScopedHandler } from './route-scope.ts'

// Loaded through Vite (dev) or from the build (production). It exports the React Router build too,
// so @react-router/serve can serve the same build as the bench baseline.
export * from 'virtual:react-router/server-build'
export type { AppDeps }

/**
 * The build with each route module as a plain object instead of its module namespace: React Router
 * rebuilds its route tree from them on every document request (~100 routes, several properties
 * each, most of them absent), and a namespace answers each lookup, absent ones too, far more slowly
 * than an object (decision 285). The modules' values are the same functions.
 */
const plainBuild = {
  ...build,
  routes: Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => [
      id,
      route && { ...route, module: { ...route.module } },
    ]),
  ),
} as typeof build

export function createAppListener(deps: AppDeps): NodeListener {
  // Each request is handled with its own branch's routes only (decision 290).
  const handle = createRouteScopedHandler(plainBuild, deps.mode)
  const listener = createRequestListener((request: Request, client: ClientAddress) => {
    const render = () => {
      const context = new RouterContextProvider()
      // Every page request passes the one cross-site check and the form guard here (app/lib/page-guard.server.ts):
      // a form may come from the address it was sent to or from PUBLIC_URL's (behind a proxy they differ).
      const guarded = guardPageRequest(request, [new URL(request.url).origin, deps.publicUrl])
      context.set(refusalContext, guarded.refused)
      context.set(appContext, {
        ...deps,
        requestId: request.headers.get('x-request-id') ?? '',
        clientIp: request.headers.get(CLIENT_ADDRESS_HEADER) ?? client?.address ?? '',
        callers: new Map(),
        reads: new Map(),
      })
      return handle(guarded.request, context)
    }
    return deps.pageCache ? deps.pageCache.serve(request, render) : render()
  })
  return (req, res) => listener(req, res)
}
