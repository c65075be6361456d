import { createRequestListener } from '@react-router/node'
import { RouterContextProvider } from 'react-router'
import * as build from 'virtual:react-router/server-build'
import { appContext, type AppDeps } from '../app/lib/context.ts'
import type { NodeListener } from './app-loader.ts'

// Loaded through Vite (dev) or from the build (production). It exports the React Router build too,
// so @react-router/serve can serve the same build as the bench baseline.
export * from 'virtual:react-router/server-build'
export type { AppDeps }

export function createAppListener(deps: AppDeps): NodeListener {
  const listener = createRequestListener({
    build,
    mode: deps.mode,
    getLoadContext(request, client) {
      const context = new RouterContextProvider()
      context.set(appContext, { ...deps, requestId: request.headers.get('x-request-id') ?? '', clientIp: client?.address ?? '', origin: new URL(request.url).origin })
      return context
    },
  })
  return (req, res) => listener(req, res)
}
