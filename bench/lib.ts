import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import net from 'node:net'
import autocannon from 'autocannon'

export const root = path.resolve(import.meta.dirname, '..')

export function ensureBuild() {
  if (fs.existsSync(path.join(root, 'build/server/index.js'))) return
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/@react-router/dev/bin.cjs'), 'build'], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) throw new Error('build failed')
}

export async function freePort() {
  return new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}

/** Starts a process and resolves once `url` answers 200 (stderr 'pipe' lets a bench keep what it wrote). */
export async function startProcess(args: string[], env: Record<string, string>, url: string, stderr: 'inherit' | 'pipe' = 'inherit'): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', stderr] })
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return child
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill()
  throw new Error(`${args.join(' ')} did not start`)
}

export async function startWorkneer(extraEnv: Record<string, string> = {}, stderr: 'inherit' | 'pipe' = 'inherit') {
  const port = await freePort()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-bench-'))
  const child = await startProcess(['server/boot.js'], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...extraEnv }, `http://127.0.0.1:${port}/readyz`, stderr)
  return { port, child, url: `http://127.0.0.1:${port}` }
}

export interface Measured {
  name: string
  rps: number
  p50: number
  p99: number
  errors: number
}

export async function measure(name: string, url: string, { seconds = 10, connections = 20, headers = {} as Record<string, string> } = {}): Promise<Measured> {
  await autocannon({ url, connections, duration: 2, headers }) // warm-up, not reported
  const r = await autocannon({ url, connections, duration: seconds, headers })
  return { name, rps: r.requests.p50, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx }
}

export function printTable(rows: Measured[]) {
  console.log('| scenario | req/s (median) | p50 ms | p99 ms | errors |')
  console.log('| --- | ---: | ---: | ---: | ---: |')
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} |`)
}

/** The baseline of the page ratios: the trivial page on @react-router/serve (run.ts row a). */
export async function startTrivialBaseline() {
  const port = await freePort()
  const child = await startProcess([path.join(root, 'node_modules/@react-router/serve/bin.cjs'), 'build/server/index.js'], { PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' }, `http://127.0.0.1:${port}/_bench/trivial`)
  return { child, url: `http://127.0.0.1:${port}/_bench/trivial` }
}
