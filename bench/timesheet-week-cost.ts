import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { StatementSync } from 'node:sqlite'
import pg from 'pg'
import type { Db } from '#server/db/database.ts'
import { seedReference } from '#server/db/seed.ts'
import { moduleTestApi } from '../tests/integration/module-api.ts'
import { onBothDatabases } from './lib.ts'
import { fill } from './timesheets.ts'

// What one week of the timesheet sweep costs (decision 344), per transaction: statements, commits,
// wall and CPU time, and the commit's own (on SQLite, the fsync of synchronous=FULL waits in it).
// Not in `npm run bench`: it wraps node:sqlite's and pg's statement calls to count them, which a
// bench of speed should not. `BENCH_TIMESHEET_CONTRACTS=20 BENCH_TIMESHEET_WEEKS=10 node bench/timesheet-week-cost.ts`.
type Tx = {
  label: string
  statements: number
  wall: number
  cpu: number
  commitWall: number
  commitCpu: number
}
const txs: Tx[] = []
let open: (Tx & { t0: number; c0: NodeJS.CpuUsage }) | null = null
let on = false
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000

function around(run: () => unknown, done: (t: number, c: number) => void) {
  const t0 = performance.now()
  const c0 = process.cpuUsage()
  const finish = () => done(performance.now() - t0, cpuMs(process.cpuUsage(c0)))
  const r = run()
  if (r && typeof (r as Promise<unknown>).then === 'function') return (r as Promise<unknown>).finally(finish)
  finish()
  return r
}
/** A transaction is named by its first statement; a write outside one is its own commit (AUTOCOMMIT). */
function observe(sqlText: string, run: () => unknown) {
  if (!on) return run()
  const s = sqlText.trim().toLowerCase()
  if (s.startsWith('begin')) {
    open = {
      label: '',
      statements: 0,
      wall: 0,
      cpu: 0,
      commitWall: 0,
      commitCpu: 0,
      t0: performance.now(),
      c0: process.cpuUsage(),
    }
    return run()
  }
  if (s.startsWith('commit') || s.startsWith('rollback')) {
    const tx = open!
    open = null
    return around(run, (t, c) => {
      tx.commitWall = t
      tx.commitCpu = c
      tx.wall = performance.now() - tx.t0
      tx.cpu = cpuMs(process.cpuUsage(tx.c0))
      txs.push(tx)
    })
  }
  if (open) {
    open.statements++
    if (!open.label) open.label = s.slice(0, 70)
    return run()
  }
  const write = /^(insert|update|delete)/.test(s)
  const tx: Tx = {
    label: (write ? 'AUTOCOMMIT ' : 'read ') + s.slice(0, 60),
    statements: 1,
    wall: 0,
    cpu: 0,
    commitWall: 0,
    commitCpu: 0,
  }
  return around(run, (t, c) => {
    tx.wall = t
    tx.cpu = c
    if (write) {
      tx.commitWall = t
      tx.commitCpu = c
    }
    txs.push(tx)
  })
}
const S = StatementSync.prototype as any
for (const m of ['all', 'run', 'get', 'iterate']) {
  const orig = S[m]
  S[m] = function (this: StatementSync, ...a: unknown[]) {
    return observe(this.sourceSQL, () => orig.apply(this, a))
  }
}
const C = pg.Client.prototype as any
const q = C.query
C.query = function (this: unknown, ...a: any[]) {
  const text = typeof a[0] === 'string' ? a[0] : (a[0]?.text ?? '')
  return observe(text, () => q.apply(this, a))
}

async function run(database: Db, label: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-cost-'))
  await seedReference(database.db)
  const api = moduleTestApi(database, {
    name: 'wk-cost',
    addressBlock: 45,
    dataDir,
    env: { NODE_ENV: 'production' },
  })
  const weeks = await fill(database, api)
  txs.length = 0
  on = true
  const t0 = performance.now(),
    c0 = process.cpuUsage()
  // One contract at a time: the count names each transaction by its first statement, so it needs them one after another.
  await api.api.services.timesheets.sweep(undefined, undefined, 1)
  const wall = performance.now() - t0,
    cpu = cpuMs(process.cpuUsage(c0))
  on = false
  await api.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
  const groups = new Map<
    string,
    { n: number; st: number; wall: number; cpu: number; cw: number; cc: number; max: number; cmax: number }
  >()
  for (const t of txs) {
    const k = t.label.replace(/\d+/g, 'N')
    const g = groups.get(k) ?? { n: 0, st: 0, wall: 0, cpu: 0, cw: 0, cc: 0, max: 0, cmax: 0 }
    g.n++
    g.st += t.statements
    g.wall += t.wall
    g.cpu += t.cpu
    g.cw += t.commitWall
    g.cc += t.commitCpu
    g.max = Math.max(g.max, t.wall)
    g.cmax = Math.max(g.cmax, t.commitWall)
    groups.set(k, g)
  }
  console.log(
    `\n${label}: ${weeks} weeks, sweep wall ${(wall / weeks).toFixed(2)} ms/week, CPU ${(cpu / weeks).toFixed(2)} ms/week`,
  )
  const commits = txs.filter((t) => t.commitWall > 0 || t.label.startsWith('AUTOCOMMIT')).length
  console.log(
    `statements/week ${(txs.reduce((s, t) => s + t.statements + (t.label.startsWith('read') || t.label.startsWith('AUTO') ? 0 : 2), 0) / weeks).toFixed(1)} (with begin/commit), commits/week ${(commits / weeks).toFixed(2)}`,
  )
  console.table(
    [...groups].map(([k, g]) => ({
      tx: k,
      'per week': (g.n / weeks).toFixed(2),
      'stmts/tx': (g.st / g.n).toFixed(1),
      'wall ms': (g.wall / g.n).toFixed(2),
      'cpu ms': (g.cpu / g.n).toFixed(2),
      'max ms': g.max.toFixed(1),
      'commit wall': (g.cw / g.n).toFixed(2),
      'commit cpu': (g.cc / g.n).toFixed(2),
      'max commit': g.cmax.toFixed(1),
    })),
  )
  return []
}
await onBothDatabases('wk_cost', run)
