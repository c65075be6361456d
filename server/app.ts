import { createRequestHandler, RouterContextProvider } from 'react-router'
import * as build from 'virtual:react-router/server-build'
import { appContext, type AppDeps } from '../app/lib/context.ts'
import { guardPageRequest, refusalContext } from '../app/lib/page-guard.server.ts'

// Loaded through Vite (dev) or from the build (production). It exports the React Router build too,
// so @react-router/serve can serve the same build as the bench baseline.
export * from 'virtual:react-router/server-build'
export type { AppDeps }

/** What the Node entry knows of one page request that the request itself does not carry. */
export interface PageRequestInfo {
  requestId: string
  /** The browser's address, as the request guard resolved it (TRUST_PROXY). */
  clientIp: string
}

/** React Router's request handler for the build, with the app's dependencies in every request's context. */
export function createPageHandler(deps: AppDeps) {
  const handle = createRequestHandler(build, deps.mode)
  return (request: Request, info: PageRequestInfo): Promise<Response> => {
    const context = new RouterContextProvider()
    // Every page request passes the one cross-site check and the form guard here (app/lib/page-guard.server.ts):
    // a form may come from the address it was sent to or from PUBLIC_URL's (behind a proxy they differ).
    const guarded = guardPageRequest(request, [new URL(request.url).origin, deps.publicUrl])
    context.set(refusalContext, guarded.refused)
    const reading = request.method === 'GET' || request.method === 'HEAD'
    context.set(appContext, { ...deps, ...info, sharedAuthentication: reading ? {} : undefined })
    return handle(guarded.request, context)
  }
}

export type PageHandler = ReturnType<typeof createPageHandler>
