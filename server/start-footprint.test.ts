import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ensureTestBuild } from '../tests/support/test-build.ts'

// Decision 136: a server on SQLite without Redis or SMTP does not load the packages only those
// need (each is megabytes of resident memory); they load when configured, or at the first upload.
const root = path.resolve(import.meta.dirname, '..')
const onDemand = [
  'ioredis',
  'nodemailer',
  'pg',
  'file-type',
  'image-size',
  'read-excel-file',
  'write-excel-file',
  'csv-parse',
  'csv-stringify',
  'fflate',
  'qrcode',
  'stripe',
  'pdfkit',
]

describe('what the server loads at start', () => {
  it('leaves the Redis, SMTP, PostgreSQL, Stripe, PDF and file-type packages out until they are needed', () => {
    // The built web app, as `npm start` serves it (built here when missing or stale): its routes' modules load at start too.
    ensureTestBuild('E2E')
    const build = path.join(root, 'build/server/index.js')
    // A child process records every module its loader loads while it imports the server's entry and the web app.
    const script = `
      import { registerHooks } from 'node:module'
      const loaded = []
      registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context) } })
      await import(${JSON.stringify(path.join(root, 'server/index.ts'))})
      await import(${JSON.stringify(build)})
      process.stdout.write(JSON.stringify(loaded))`
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(child.status, child.stderr).toBe(0)
    const packages = new Set(
      (JSON.parse(child.stdout) as string[])
        .map((url) => url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1])
        .filter(Boolean),
    )
    expect(packages.has('kysely'), 'the recording works').toBe(true)
    expect(onDemand.filter((name) => packages.has(name))).toEqual([])
  })
})
