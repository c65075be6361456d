import { reactRouter } from '@react-router/dev/vite'
import { defineConfig, type Rolldown } from 'vite'

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

/** React, React DOM and React Router change less often than our code, so they stay cached apart. */
function startGroup(id: string, graph: Graph) {
  if (startEntries.test(id) || !runsAtStart(id, graph)) return null
  return id.includes('/node_modules/') ? 'framework' : 'shell'
}

export default defineConfig({
  plugins: [reactRouter()],
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  // The SSR build's entry is our server module, so the Node entry can pass the in-process API,
  // the hubs and the logger into every request's context.
  environments: {
    ssr: { build: { rollupOptions: { input: './server/app.ts' } } },
    client: {
      build: {
        rolldownOptions: {
          output: { codeSplitting: { groups: [{ name: startGroup, debugName: 'start' }] } },
        },
      },
    },
  },
  build: { assetsInlineLimit: 0, sourcemap: process.env.BUNDLE_REPORT === '1' },
})
