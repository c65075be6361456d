import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort } from '../support/server-process.ts'

// The real entry (server/boot.js) started as an operator would, to see what they would see. Ports
// come from freePort (never one an outgoing connection may take before the server listens).
const root = path.resolve(import.meta.dirname, '../..')

// A process a test started and did not stop (it failed half-way) is killed after it, never left running.
const running = new Set<ChildProcess>()
afterEach(() => {
  for (const child of running) child.kill('SIGKILL')
})

function run(
  env: Record<string, string>,
  { until, timeoutMs = 20_000 }: { until?: RegExp; timeoutMs?: number } = {},
) {
  const child = spawn(process.execPath, ['server/boot.js'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', SEED_DEMO: 'false', ...env },
  })
  running.add(child)
  child.once('exit', () => running.delete(child))
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const ready = until
    ? new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not ready: ${stdout}${stderr}`)), timeoutMs)
        child.stdout.on('data', () => until.test(stdout) && (clearTimeout(timer), resolve()))
      })
    : Promise.resolve()
  return { child, exited, ready, output: () => ({ stdout, stderr }) }
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-proc-'))

// Each test starts real server processes, which can take seconds on a busy two-core machine.
describe('the server process', { timeout: 60_000 }, () => {
  it('refuses a bad DATABASE_URL with one clear line and a non-zero exit', async () => {
    const p = run({ DATABASE_URL: 'mysql://x/y', DATA_DIR: tmp(), PORT: '0' })
    expect(await p.exited).toBe(1)
    expect(p.output().stderr.trim()).toMatch(
      /^Invalid configuration:\n {2}DATABASE_URL: must be a postgres:\/\/ URL/,
    )
    expect(p.output().stderr).not.toMatch(/\n\s+at /)
  })

  it('says so in one line when PostgreSQL cannot be reached', async () => {
    const p = run({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', DATA_DIR: tmp(), PORT: '0' })
    expect(await p.exited).toBe(1)
    expect(p.output().stderr.trim()).toMatch(
      /^Workneer cannot start: cannot reach PostgreSQL at 127\.0\.0\.1:1\/none/,
    )
    expect(p.output().stderr.trim().split('\n')).toHaveLength(1)
  })

  it('says so when the data folder cannot be written', async () => {
    const file = path.join(tmp(), 'a-file')
    fs.writeFileSync(file, '')
    const p = run({ DATA_DIR: path.join(file, 'data'), PORT: '0' })
    expect(await p.exited).toBe(1)
    expect(p.output().stderr.trim()).toMatch(
      /^Workneer cannot start: the data folder .* cannot be created or written to$/,
    )
  })

  it('serves, then on SIGTERM finishes and exits 0, keeping its rows for the next start', async () => {
    const dataDir = tmp()
    const port = String(await freePort())
    const first = run({ DATA_DIR: dataDir, PORT: port }, { until: /listening/ })
    await first.ready
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.text()).toBe('ready')
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(first.output().stdout).toMatch(/"msg":"stopped"/)
    const second = run({ DATA_DIR: dataDir, PORT: port }, { until: /listening/ })
    await second.ready
    expect(second.output().stdout).not.toMatch(/migrations applied/)
    const categories = await (await fetch(`http://127.0.0.1:${port}/api/v1/categories`)).json()
    expect(categories.data.length).toBe(6)
    second.child.kill('SIGINT')
    expect(await second.exited).toBe(0)
  })

  it('stops on SIGTERM when no one reads its output any more (a log collector that died)', async () => {
    const port = String(await freePort())
    const p = run({ DATA_DIR: tmp(), PORT: port, HOST: '127.0.0.1' }, { until: /listening/ })
    await p.ready
    // The read ends of its stdout and stderr go: every line it writes from now on meets a broken pipe.
    p.child.stdout.destroy()
    p.child.stderr.destroy()
    await new Promise((r) => setTimeout(r, 200))
    p.child.kill('SIGTERM')
    const code = await Promise.race([
      p.exited,
      new Promise((r) => setTimeout(() => r('still running 10 s after SIGTERM'), 10_000)),
    ])
    expect(code).toBe(0)
  })
})

describe('the web UI and the API on two hosts', { timeout: 60_000 }, () => {
  it('renders pages from an API on another host when API_URL is set, with one request id across both', async () => {
    const [apiPort, uiPort] = [String(await freePort()), String(await freePort())]
    const api = run({ DATA_DIR: tmp(), PORT: apiPort, HOST: '127.0.0.1' }, { until: /listening/ })
    const ui = run(
      { DATA_DIR: tmp(), PORT: uiPort, HOST: '127.0.0.1', API_URL: `http://127.0.0.1:${apiPort}` },
      { until: /listening/ },
    )
    try {
      // Both are stopped in any case, also when one of them does not start.
      await Promise.all([api.ready, ui.ready])
      const requestId = 'trace-0123456789'
      const page = await fetch(`http://127.0.0.1:${uiPort}/`, { headers: { 'x-request-id': requestId } })
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('Planning and Strategy')
      await new Promise((r) => setTimeout(r, 200))
      const apiLines = api
        .output()
        .stdout.split('\n')
        .filter((l) => l.includes('/api/v1/categories'))
      expect(apiLines.some((l) => JSON.parse(l).requestId === requestId)).toBe(true)
    } finally {
      api.child.kill('SIGTERM')
      ui.child.kill('SIGTERM')
      await Promise.all([api.exited, ui.exited])
    }
  })

  it('serves hashed assets compressed at build time and cached for a year', async () => {
    const port = String(await freePort())
    const p = run({ DATA_DIR: tmp(), PORT: port, HOST: '127.0.0.1' }, { until: /listening/ })
    try {
      await p.ready
      const html = await (await fetch(`http://127.0.0.1:${port}/auth/login`)).text()
      const stylesheet = html.match(/\/assets\/app-[\w-]+\.css/)![0]
      // A visitor's page runs no script; the browser entry is the one every signed-in page loads.
      const entry = fs
        .readdirSync(path.join(root, 'build/client/assets'))
        .find((f) => /^entry\.client-.*\.js$/.test(f))
      const script = `/assets/${entry}`
      for (const asset of [stylesheet, script]) {
        const get = (encoding: string) =>
          fetch(`http://127.0.0.1:${port}${asset}`, { headers: { 'accept-encoding': encoding } })
        const [plain, gzip, brotli] = await Promise.all([get('identity'), get('gzip'), get('gzip, br')])
        expect(plain.headers.get('content-encoding'), asset).toBeNull()
        expect(gzip.headers.get('content-encoding'), asset).toBe('gzip')
        expect(brotli.headers.get('content-encoding'), asset).toBe('br')
        // The copies are the build's own files, sent with their length, not compressed on the way.
        expect(Number(brotli.headers.get('content-length'))).toBeLessThan(
          Number(gzip.headers.get('content-length')),
        )
        for (const r of [plain, gzip, brotli]) {
          expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
          expect(r.headers.get('vary')).toMatch(/accept-encoding/i)
        }
        const text = await plain.text()
        expect(await gzip.text()).toBe(text)
        expect(await brotli.text()).toBe(text)
      }
    } finally {
      p.child.kill('SIGTERM')
      await p.exited
    }
  })
})
