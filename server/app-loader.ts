import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AppDeps, PageHandler } from './app.ts'
import type { Logger } from './log.ts'

export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void

/** The web app as the Node entry serves it: static files first, then React Router's pages. */
export interface WebApp {
  /** Serves a static file (the built client, public/) or calls `next`. */
  serveStatic: NodeMiddleware
  handle: PageHandler
  close(): Promise<void>
}

const root = path.resolve(import.meta.dirname, '..')

// Production serves the built app (building it first if it is missing); development runs Vite in
// middleware mode, whose HMR socket listens on its own port, so /hubs upgrades stay ours.
export async function loadApp(
  mode: 'production' | 'development',
  deps: AppDeps,
  log: Logger,
): Promise<WebApp> {
  return mode === 'development' ? loadWithVite(deps) : loadBuild(deps, log)
}

async function loadWithVite(deps: AppDeps): Promise<WebApp> {
  const vite = await import('vite')
  const server = await vite.createServer({ root, server: { middlewareMode: true }, appType: 'custom' })
  return {
    serveStatic: (req, res, next) => server.middlewares(req, res, next),
    // The app module is asked for on every request, so an edit shows on the next one.
    handle: async (request, info) => {
      try {
        const app = (await server.ssrLoadModule(
          path.join(root, 'server/app.ts'),
        )) as typeof import('./app.ts')
        return await app.createPageHandler(deps)(request, info)
      } catch (error) {
        server.ssrFixStacktrace(error as Error)
        throw error
      }
    },
    close: () => server.close(),
  }
}

async function loadBuild(deps: AppDeps, log: Logger): Promise<WebApp> {
  const entry = path.join(root, 'build/server/index.js')
  if (!fs.existsSync(entry)) {
    log.info('no build found: building the web app once (npm run build)')
    const result = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/@react-router/dev/bin.cjs'), 'build'],
      { cwd: root, stdio: 'inherit' },
    )
    if (result.status !== 0) throw new Error('the web app failed to build; run npm run build to see why')
  }
  const sirv = (await import('sirv')).default
  const serveStatic = sirv(path.join(root, 'build/client'), {
    etag: true,
    // The build writes each script and stylesheet compressed beside it (decision 369).
    brotli: true,
    gzip: true,
    setHeaders(res, pathname) {
      res.setHeader(
        'cache-control',
        pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      )
    },
  })
  const built = (await import(entry)) as typeof import('./app.ts')
  return { serveStatic, handle: built.createPageHandler(deps), close: async () => {} }
}
