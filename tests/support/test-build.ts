import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')
const entry = path.join(root, 'build/server/index.js')

/** Whether build/ was made with the end-to-end tests' and the bench's routes (app/routes.ts). */
export function buildHasTestRoutes() {
  return fs.existsSync(entry) && fs.readFileSync(entry, 'utf8').includes('"_test/status/:status"')
}

/**
 * Builds the app with the end-to-end tests' and the bench's routes unless build/ already has them: a
 * production build (`npm run build`) leaves them out, and the route table is fixed when the app is
 * built. `mode` is the variable the build runs with, E2E or BENCH (both add the same routes).
 */
export function ensureTestBuild(mode: 'E2E' | 'BENCH') {
  if (buildHasTestRoutes()) return
  console.log(`building the app with the test and bench routes (${mode}=1 react-router build)`)
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/@react-router/dev/bin.cjs'), 'build'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, [mode]: '1' },
    },
  )
  if (result.status !== 0) throw new Error('the app failed to build')
}
