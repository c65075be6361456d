import { spawn, type ChildProcess } from 'node:child_process'
import { PerformanceObserver } from 'node:perf_hooks'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import autocannon from 'autocannon'
import pg from 'pg'
import type { DatabaseTarget } from '#server/config.ts'
import type { Insertable } from 'kysely'
import type { AppUserTable } from '#server/db/schema.ts'
import { migrateToLatest, openDatabase, type Db } from '#server/db/database.ts'
import type { ProbeQuestion } from './probe.ts'
import { freePort } from '../tests/support/server-process.ts'
import { ensureTestBuild } from '../tests/support/test-build.ts'

export const root = path.resolve(import.meta.dirname, '..')

/** A build with the bench's trivial page (app/routes.ts adds it only to a build made with BENCH=1). */
export function ensureBuild() {
  ensureTestBuild('BENCH')
}

// One way to find a port for a server, the tests' (never the same port twice in a process).
export { freePort }

/** Starts a process and resolves once `url` answers 200 (stderr 'pipe' lets a bench keep what it wrote; `ipc` opens the channel bench/probe.ts answers on). */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  url: string,
  stderr: 'inherit' | 'pipe' = 'inherit',
  ipc = false,
  cwd = root,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ipc ? ['ignore', 'ignore', stderr, 'ipc'] : ['ignore', 'ignore', stderr],
  })
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

/**
 * The production server on a fresh data folder (or `DATA_DIR` of extraEnv). `nodeArgs` go before the
 * entry (a heap cap); `probe` loads bench/probe.ts into it; `checkout` runs another checkout's build.
 */
export async function startWorkneer(
  extraEnv: Record<string, string> = {},
  stderr: 'inherit' | 'pipe' = 'inherit',
  { nodeArgs = [] as string[], probe = false, checkout = root } = {},
) {
  const port = await freePort()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-bench-'))
  const args = [
    // LOAD_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server a bench starts.
    ...(process.env.LOAD_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ...nodeArgs,
    ...(probe ? ['--expose-gc', '--import', path.join(root, 'bench/probe.ts')] : []),
    'server/boot.js',
  ]
  // The probe is TypeScript loaded before server/boot.js turns Node's compile cache on: with the cache
  // on from the start (the same folder boot.js uses), the probe does not load the type stripper
  // into a server that, unprobed, would not hold it (decision 136).
  const compileCache: Record<string, string> = probe
    ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), 'node-compile-cache') }
    : {}
  const child = await startProcess(
    args,
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...compileCache,
      ...extraEnv,
    },
    `http://127.0.0.1:${port}/readyz`,
    stderr,
    probe,
    checkout,
  )
  return { port, child, url: `http://127.0.0.1:${port}`, dataDir: extraEnv.DATA_DIR ?? dataDir }
}

/** Asks bench/probe.ts, loaded into `child`, a question over the IPC channel. */
export function askProbe<A>(
  child: ChildProcess,
  question: DistributiveOmit<ProbeQuestion, 'id'>,
): Promise<A> {
  const id = ++asked
  return new Promise((resolve, reject) => {
    const onMessage = (message: { id: number; answer: A }) => {
      if (message?.id !== id) return
      child.off('message', onMessage)
      resolve(message.answer)
    }
    child.on('message', onMessage)
    child.send({ ...question, id }, (error) => error && reject(error))
  })
}
let asked = 0
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

export interface Measured {
  name: string
  rps: number
  p50: number
  p99: number
  errors: number
  /** Requests answered in the measured seconds (not the warm-up). */
  total: number
  /** How many answers had each status other than 2xx (what `errors` counts besides failed connections). */
  statuses: Record<string, number>
}

/** `requests`: a sequence each connection repeats (paths and headers on `url`'s host), for a mix. */
export async function measure(
  name: string,
  url: string,
  {
    seconds = 10,
    connections = 20,
    headers = {} as Record<string, string>,
    warmup = true,
    requests = undefined as autocannon.Request[] | undefined,
  } = {},
): Promise<Measured> {
  if (warmup) await autocannon({ url, connections, duration: 2, headers, requests }) // warm-up, not reported
  const r = await autocannon({ url, connections, duration: seconds, headers, requests })
  const statuses = Object.fromEntries(
    Object.entries(r.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, s]) => [code, s.count ?? 0]),
  )
  return {
    name,
    rps: r.requests.p50,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
    total: r.requests.total,
    statuses,
  }
}

export function printTable(rows: Measured[]) {
  console.log('| scenario | req/s (median) | p50 ms | p99 ms | errors |')
  console.log('| --- | ---: | ---: | ---: | ---: |')
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} |`)
}

/** The baseline of the page ratios: the trivial page on @react-router/serve (run.ts row a). */
export async function startTrivialBaseline() {
  const port = await freePort()
  const child = await startProcess(
    [path.join(root, 'node_modules/@react-router/serve/bin.cjs'), 'build/server/index.js'],
    { PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
    `http://127.0.0.1:${port}/_bench/trivial`,
  )
  return { child, url: `http://127.0.0.1:${port}/_bench/trivial` }
}

const postgresAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** A bench's own empty database: a SQLite file in `dataDir`, or a fresh PostgreSQL database named after `prefix`, and how to drop it. */
export async function benchDatabase(dialect: 'sqlite' | 'postgres', dataDir: string, prefix: string) {
  if (dialect === 'sqlite')
    return {
      target: { kind: 'sqlite', file: path.join(dataDir, 'workneer.sqlite') } as DatabaseTarget,
      drop: async () => {},
    }
  const name = `${prefix}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgresAdminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(postgresAdminUrl)
  url.pathname = `/${name}`
  const drop = async () => {
    const c = new pg.Client({ connectionString: postgresAdminUrl })
    await c.connect()
    await c.query(`drop database if exists ${name} with (force)`)
    await c.end()
  }
  return { target: { kind: 'postgres', url: url.href } as DatabaseTarget, drop }
}

/**
 * Runs `run` on a migrated, empty database of each dialect (`benchDatabase`, named after `prefix`),
 * dropped after; their rows in order. `BENCH_DIALECTS=postgres` (or `sqlite`) runs one of them.
 */
export async function onBothDatabases<T>(prefix: string, run: (database: Db, label: string) => Promise<T[]>) {
  const results: T[] = []
  const only = process.env.BENCH_DIALECTS?.split(',')
  for (const [dialect, label] of [
    ['sqlite', 'SQLite'],
    ['postgres', 'PostgreSQL'],
  ] as const) {
    if (only && !only.includes(dialect)) continue
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `workneer-${prefix}-`))
    const { target, drop } = await benchDatabase(dialect, dataDir, prefix)
    try {
      const database = await openDatabase(target)
      try {
        await migrateToLatest(database)
        results.push(...(await run(database, label)))
      } finally {
        await database.close()
      }
    } finally {
      await drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
  return results
}

/** An active, verified person of a kind for a bench's bulk rows (no password: no one signs in as them). */
export function benchUser(
  email: string,
  kind: 'client' | 'freelancer',
  now: string,
  language = 'en',
): Insertable<AppUserTable> {
  return {
    email,
    email_verified: 1,
    password_hash: null,
    first_name: 'Bench',
    last_name: email.split('@')[0]!,
    company_name: null,
    phone_number: null,
    language,
    account_type: kind,
    status: 'Active',
    image_file_id: null,
    provider: 'local',
    terms_accepted_at: now,
    created_at: now,
    updated_at: now,
  }
}

export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]

/** A gap of the block meter's timer this long is a block the targets count (< 50 ms). */
export const BLOCK_LIMIT_MS = 50

/**
 * The event loop's longest block: the widest gap between the ticks of a 5 ms timer, less the 5 ms.
 * (monitorEventLoopDelay missed a job that blocked from its start on SQLite, where a query runs on
 * this thread and awaiting it lets no timer run: its first late tick only started its clock.) Also
 * the most CPU this process used within one gap: on a loaded machine a gap also counts the time
 * the process waited for a core or the disk, which its own CPU time does not. Every block over
 * BLOCK_LIMIT_MS is counted, and those in which this process used at least half the gap's time are
 * counted apart (its own work, a GC pause among it; the others waited for a core or the disk).
 */
function blockMeter() {
  let last = performance.now()
  let lastCpu = process.cpuUsage()
  let widest = 0
  let busiest = 0
  let over = 0
  let overBusy = 0
  const tick = () => {
    const now = performance.now()
    const cpu = process.cpuUsage(lastCpu)
    const gap = now - last - 5
    const used = (cpu.user + cpu.system) / 1000
    widest = Math.max(widest, now - last)
    busiest = Math.max(busiest, used)
    if (gap > BLOCK_LIMIT_MS) {
      over++
      if (used >= gap / 2) overBusy++
    }
    last = now
    lastCpu = process.cpuUsage()
  }
  const timer = setInterval(tick, 5)
  return () => {
    tick()
    clearInterval(timer)
    return {
      blockMs: Math.max(0, widest - 5),
      blockCpuMs: busiest,
      blocksOver: over,
      blocksOverBusy: overBusy,
    }
  }
}

/** V8's garbage collection pauses on this thread while the job runs: how many, the longest, and how many over 10 ms. */
function gcMeter() {
  let longest = 0
  let count = 0
  let over10 = 0
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      count++
      longest = Math.max(longest, e.duration)
      if (e.duration > 10) over10++
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  return () => {
    observer.disconnect()
    return { gcPauses: count, gcLongestMs: longest, gcOver10: over10 }
  }
}

/**
 * Runs `job` in this process while `request` is due every 20 ms: the job's wall and CPU time, the
 * event loop's longest block, and the requests' p99 and slowest. A request's time counts from when
 * it was due, not from when a blocked event loop let it start (one arriving then waits as long);
 * the request due when the job ends is made too, so a block lasting to the end is counted.
 */
export async function whileProbed(
  request: () => Promise<{ status: number; text: string }>,
  job: () => Promise<unknown>,
) {
  const waits: number[] = []
  let running = true
  const blocks = blockMeter()
  const gc = gcMeter()
  const probe = (async () => {
    let due = performance.now()
    for (;;) {
      const answer = await request()
      if (answer.status !== 200) throw new Error(`probe: ${answer.status} ${answer.text}`)
      const done = performance.now()
      waits.push(done - due)
      if (!running) return
      due = done + 20
      await new Promise((r) => setTimeout(r, 20))
    }
  })()
  const started = performance.now()
  const cpu = process.cpuUsage()
  await job()
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  running = false
  await probe
  return {
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    ...blocks(),
    ...gc(),
    requests: waits.length,
    requestP50: pct(waits, 0.5),
    requestP99: pct(waits, 0.99),
    requestMax: Math.max(...waits),
  }
}

/** `whileProbed`'s figures as a bench table's columns. */
export const probedColumns = (s: Awaited<ReturnType<typeof whileProbed>>) => ({
  'job s': s.seconds.toFixed(1),
  'job CPU s': s.cpuSeconds.toFixed(1),
  'longest block ms': s.blockMs.toFixed(1),
  'most CPU in a block ms': s.blockCpuMs.toFixed(1),
  [`blocks > ${BLOCK_LIMIT_MS} ms (own work)`]: `${s.blocksOver} (${s.blocksOverBusy})`,
  'GC pauses > 10 ms (longest ms)': `${s.gcOver10} (${s.gcLongestMs.toFixed(1)})`,
  requests: s.requests,
  'request p50 ms': s.requestP50.toFixed(1),
  'request p99 ms': s.requestP99.toFixed(1),
  'request max ms': s.requestMax.toFixed(1),
})
