import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as signalR from '@microsoft/signalr'
import { openDatabase, migrateToLatest } from '#server/db/database.ts'
import type { DatabaseTarget } from '#server/config.ts'
import { seedReference } from '#server/db/seed.ts'
import { moduleTestApi } from '../tests/integration/module-api.ts'
import { publishedProject, RETAINING_WALL } from '../tests/support/modules/projects.ts'
import { benchDatabase, ensureBuild, startWorkneer } from './lib.ts'

// Issue 14: from a commit to the bell. A freelancer asks a question on a client's project through
// the API (the service commits the question and its notification in one transaction); the clock
// stops when the client's notifications hub connection, held by the official @microsoft/signalr
// client, receives countNotify. Per transport (WebSockets, Server-Sent Events, long polling), 50
// questions one after another, on the production server (server/boot.js) in its own process, on
// SQLite and PostgreSQL. The time runs from sending the question, so it includes the request's own
// work before its commit: an upper bound of commit-to-notification. `node bench/notify-latency.ts`
// runs it alone (BENCH_DIALECTS=sqlite for one database).
const SAMPLES = Number(process.env.BENCH_NOTIFY_SAMPLES ?? 50)
const TARGET_P99_MS = 100
const WAIT_MS = 10_000
const transports = ['WebSockets', 'ServerSentEvents', 'LongPolling'] as const
type Dialect = 'sqlite' | 'postgres'

export interface NotifyLatencyRow {
  dialect: Dialect
  transport: (typeof transports)[number]
  p50: number
  p95: number
  p99: number
  max: number
  /** The question's own answer (send to response), for scale. */
  answerP50: number
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]

/** A database with a client, a freelancer and the client's open project; their tokens and the project's id. */
async function prepare(target: DatabaseTarget, dataDir: string) {
  const database = await openDatabase(target)
  await migrateToLatest(database)
  await seedReference(database.db)
  const api = moduleTestApi(database, { name: 'notify-bench', addressBlock: 14, dataDir })
  const [client, freelancer] = [await api.user('client'), await api.user('freelancer')]
  const projectId = await publishedProject(api, database, client, RETAINING_WALL)
  await api.close()
  await database.close()
  return { client: client.token, freelancer: freelancer.token, projectId }
}

async function measureTransport(
  base: string,
  transport: (typeof transports)[number],
  tokens: Awaited<ReturnType<typeof prepare>>,
) {
  const connection = new signalR.HubConnectionBuilder()
    .withUrl(`${base}/hubs/notifications`, {
      transport: signalR.HttpTransportType[transport],
      accessTokenFactory: () => tokens.client,
    })
    .configureLogging(signalR.LogLevel.None)
    .build()
  let waiting: ((at: number) => void) | null = null
  connection.on('countNotify', () => waiting?.(performance.now()))
  await connection.start()
  const latencies: number[] = []
  const answers: number[] = []
  const ask = async () => {
    const received = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no countNotify within ${WAIT_MS} ms (${transport})`)),
        WAIT_MS,
      )
      waiting = (at) => {
        clearTimeout(timer)
        waiting = null
        resolve(at)
      }
    })
    const sent = performance.now()
    const response = await fetch(`${base}/api/v1/projects/comment/${tokens.projectId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.freelancer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Is there a soil report for the site?' }),
    })
    const answered = performance.now()
    if (response.status !== 200)
      throw new Error(`the question was refused: ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
    return { latency: (await received) - sent, answer: answered - sent }
  }
  try {
    for (let i = 0; i < 5; i++) await ask() // warm-up, not reported
    for (let i = 0; i < SAMPLES; i++) {
      const { latency, answer } = await ask()
      latencies.push(latency)
      answers.push(answer)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  } finally {
    await connection.stop()
  }
  const sorted = latencies.sort((a, b) => a - b)
  return {
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1)!,
    answerP50: quantile(
      answers.sort((a, b) => a - b),
      0.5,
    ),
  }
}

export async function runNotifyLatencyBench({
  dialects = ['sqlite', 'postgres'],
}: { dialects?: Dialect[] } = {}): Promise<NotifyLatencyRow[]> {
  ensureBuild()
  const rows: NotifyLatencyRow[] = []
  for (const dialect of dialects) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-notify-bench-'))
    const { target, drop } = await benchDatabase(dialect, dataDir, 'wk_bench_notify')
    const workneer = await (async () => {
      const tokens = await prepare(target, dataDir)
      const env: Record<string, string> = { DATA_DIR: dataDir, SEED_DEMO: 'false' }
      if (target.kind === 'postgres') env.DATABASE_URL = target.url
      return { tokens, ...(await startWorkneer(env)) }
    })()
    try {
      for (const transport of transports)
        rows.push({
          dialect,
          transport,
          ...(await measureTransport(workneer.url, transport, workneer.tokens)),
        })
    } finally {
      workneer.child.kill()
      await new Promise((resolve) => workneer.child.once('exit', resolve))
      await drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
  printNotifyLatency(rows)
  return rows
}

export function printNotifyLatency(rows: NotifyLatencyRow[]) {
  console.log(
    `\nCommit to countNotify: a question on a client's project until the client's hub connection (official @microsoft/signalr client) receives countNotify, ${SAMPLES} samples per transport, from sending the question`,
  )
  console.log('| database | transport | p50 ms | p95 ms | p99 ms | max ms | the question answered, p50 ms |')
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |')
  for (const r of rows)
    console.log(
      `| ${r.dialect} | ${r.transport} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${r.answerP50.toFixed(1)} |`,
    )
  const worst = Math.max(...rows.map((r) => r.p99))
  console.log(
    `worst p99: ${worst.toFixed(1)} ms (target < ${TARGET_P99_MS} ms: ${worst < TARGET_P99_MS ? 'meets the target' : 'MISSES the target'}); load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.availableParallelism()} cores`,
  )
}

if (import.meta.main)
  await runNotifyLatencyBench({ dialects: process.env.BENCH_DIALECTS?.split(',') as Dialect[] | undefined })
