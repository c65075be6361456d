import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')
const entryOf = (checkout: string) => path.join(checkout, 'build/server/index.js')

/** Whether build/ was made with the end-to-end tests' and the bench's routes (app/routes.ts). */
export function buildHasTestRoutes(checkout = root) {
  const entry = entryOf(checkout)
  return fs.existsSync(entry) && fs.readFileSync(entry, 'utf8').includes('"_test/status/:status"')
}

// What the web app's build is made from: a file here changed after the build means it is stale.
const sources = ['app', 'server', 'locales', 'vite.config.ts', 'react-router.config.ts']

/** Whether a source of the build changed after it was made (a developer ran one spec after an edit). */
function buildIsStale(checkout: string) {
  const built = fs.statSync(entryOf(checkout)).mtimeMs
  const newer = (file: string): boolean => {
    const stat = fs.statSync(file, { throwIfNoEntry: false })
    if (!stat) return false
    if (!stat.isDirectory()) return stat.mtimeMs > built
    return fs.readdirSync(file).some((name) => newer(path.join(file, name)))
  }
  return sources.some(
    (source) => fs.existsSync(path.join(checkout, source)) && newer(path.join(checkout, source)),
  )
}

/**
 * Builds the app with the end-to-end tests' and the bench's routes unless build/ already has them
 * and is newer than every source: a
 * production build (`npm run build`) leaves them out, and the route table is fixed when the app is
 * built. `mode` is the variable the build runs with, E2E or BENCH (both add the same routes);
 * `checkout` another checkout to build (the Lighthouse bench's `--compare`).
 */
export function ensureTestBuild(mode: 'E2E' | 'BENCH', checkout = root) {
  if (buildHasTestRoutes(checkout) && !buildIsStale(checkout)) return
  console.log(`building the app with the test and bench routes (${mode}=1 react-router build)`)
  const result = spawnSync(
    process.execPath,
    [path.join(checkout, 'node_modules/@react-router/dev/bin.cjs'), 'build'],
    {
      cwd: checkout,
      stdio: 'inherit',
      // Vitest sets NODE_ENV=test, which would make a development bundle: the pages' weights are a production build's.
      env: { ...process.env, NODE_ENV: 'production', [mode]: '1' },
    },
  )
  if (result.status !== 0) throw new Error('the app failed to build')
}
