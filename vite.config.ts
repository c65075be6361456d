import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { reactRouter } from '@react-router/dev/vite'
import { defineConfig, type Plugin, type Rolldown } from 'vite'

// The modules every signed-in page runs at start: the browser entry, the root and the common layout,
// with everything they import statically. Rolldown would cut them into some thirty small chunks, one
// per set of routes sharing them, and each file compresses on its own; in two files they weigh about
// 7 KB gzip less (issue 38). Code only some screens use stays in their routes' chunks.
const startEntries = /\/app\/(entry\.client\.tsx$|root\.tsx\?|routes\/layout\.tsx\?)/
type Graph = { getModuleInfo(id: string): Rolldown.ModuleInfo | null }

/** Whether a chain of static imports leads from a start entry to the module (answers remembered). */
const known = new Map<string, boolean>()
function runsAtStart(id: string, graph: Graph) {
  const seen = new Set([id])
  const queue = [id]
  for (let next = queue.pop(); next; next = queue.pop()) {
    for (const importer of graph.getModuleInfo(next)?.importers ?? []) {
      if (startEntries.test(importer) || known.get(importer)) {
        known.set(id, true)
        return true
      }
      if (seen.has(importer) || known.get(importer) === false) continue
      seen.add(importer)
      queue.push(importer)
    }
  }
  // Every module met on the way has all its importers among them: none runs at start.
  for (const module of seen) known.set(module, false)
  return false
}

// A route module as React Router's build gives it to the bundler (each is an entry of its own); the
// group's `test` sees every module before its `name` is asked, and counts them.
const routeEntry = /\?__react-router-build-client-route/
const routeEntries = new Set<string>()
function countRoutes(id: string) {
  if (routeEntry.test(id)) routeEntries.add(id)
  return true
}
const routesOf = new Map<string, Set<string>>()
/** The route modules from which a chain of static imports leads to the module. */
function routesReaching(id: string, graph: Graph): Set<string> {
  let routes = routesOf.get(id)
  if (routes) return routes
  routes = new Set()
  // An import cycle meets this answer while it is being filled: it may count fewer routes, which
  // only keeps a module out of the shell.
  routesOf.set(id, routes)
  for (const importer of graph.getModuleInfo(id)?.importers ?? [])
    if (routeEntry.test(importer)) routes.add(importer)
    else for (const route of routesReaching(importer, graph)) routes.add(route)
  return routes
}

/**
 * React, React DOM and React Router change less often than our code, so they stay cached apart.
 * Our small components that a third or more of the routes show at start (the button, card, notice,
 * status chip, page title helper; under 2 KB gzip together) join the shell: each was a file of its
 * own of 0.1-0.7 KB, one more request per page on a slow link (decision 353).
 */
function startGroup(id: string, graph: Graph) {
  if (startEntries.test(id) || routeEntry.test(id)) return null
  // The page's wording (decision 365, 0.6 KB gzip) is read by the pages with money or dates: as a
  // file of its own it was one more request at start on Find Project and the payouts page.
  if (id.endsWith('/app/lib/words.tsx')) return 'shell'
  if (runsAtStart(id, graph)) return id.includes('/node_modules/') ? 'framework' : 'shell'
  if (id.includes('/node_modules/') || !id.includes('/app/')) return null
  const routes = routesReaching(id, graph).size
  return routes && routes >= routeEntries.size / 3 ? 'shell' : null
}

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/**
 * Writes a Brotli and a gzip copy beside each script and stylesheet of the browser's build, which the
 * static file server sends as they are (decision 369): an asset is compressed once, at its best, not
 * on every request, and a browser that takes Brotli downloads about a sixth less script than gzip.
 */
function precompressAssets(): Plugin {
  return {
    name: 'workneer:precompress-assets',
    applyToEnvironment: (environment) => environment.name === 'client',
    async writeBundle({ dir }, bundle) {
      const files = Object.values(bundle).filter((file) => /\.(js|css)$/.test(file.fileName))
      await Promise.all(
        files.map(async (file) => {
          const body = file.type === 'chunk' ? file.code : file.source
          const target = path.join(dir!, file.fileName)
          const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY }
          await writeFile(`${target}.br`, await brotli(body, { params }))
          await writeFile(`${target}.gz`, await gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }))
        }),
      )
    },
  }
}

export default defineConfig({
  plugins: [reactRouter(), precompressAssets()],
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  // The SSR build's entry is our server module, so the Node entry can pass the in-process API,
  // the hubs and the logger into every request's context.
  environments: {
    ssr: { build: { rollupOptions: { input: './server/app.ts' } } },
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: { groups: [{ name: startGroup, test: countRoutes, debugName: 'start' }] },
          },
        },
      },
    },
  },
  build: { assetsInlineLimit: 0, sourcemap: process.env.BUNDLE_REPORT === '1' },
})
