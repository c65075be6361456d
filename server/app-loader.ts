import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AppDeps } from './app.ts'
import type { Logger } from './log.ts'

export type NodeListener = (req: IncomingMessage, res: ServerResponse, next: () => void) => void
const root = path.resolve(import.meta.dirname, '..')

// Production serves the built app (building it first if it is missing); development runs Vite in
// middleware mode, whose HMR socket listens on its own port, so /hubs upgrades stay ours.
export async function loadApp(
  mode: 'production' | 'development',
  deps: AppDeps,
  log: Logger,
): Promise<{ listener: NodeListener; close(): Promise<void> }> {
  if (mode === 'development') {
    const vite = await import('vite')
    const server = await vite.createServer({ root, server: { middlewareMode: true }, appType: 'custom' })
    return {
      listener: (req, res, next) =>
        server.middlewares(req, res, () => {
          server
            .ssrLoadModule(path.join(root, 'server/app.ts'))
            .then((m) => (m as typeof import('./app.ts')).createAppListener(deps)(req, res, next))
            .catch((error: Error) => {
              server.ssrFixStacktrace(error)
              next()
            })
        }),
      close: () => server.close(),
    }
  }
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
  const assets = sirv(path.join(root, 'build/client'), {
    etag: true,
    gzip: false,
    setHeaders(res, pathname) {
      res.setHeader(
        'cache-control',
        pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      )
    },
  })
  const built = (await import(entry)) as typeof import('./app.ts')
  const listener = built.createAppListener(deps)
  return {
    listener: (req, res, next) => assets(req, res, () => listener(req, res, next)),
    close: async () => {},
  }
}
