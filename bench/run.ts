import path from 'node:path'
import {
  ensureBuild,
  freePort,
  measure,
  printTable,
  root,
  startProcess,
  startWorkneer,
  type Measured,
} from './lib.ts'
import { runHubsBench } from './hubs.ts'
import { runProjectsBench } from './projects-search.ts'
import { runPageBudgets } from './page-weight.ts'
import { runLighthouseBench } from './lighthouse.ts'
import { runFreelancersBench } from './freelancers-search.ts'
import { runNotifyLatencyBench } from './notify-latency.ts'
import { runSignedInBench } from './signed-in.ts'
import { runChatBench } from './chat.ts'
import { runLedgerBench } from './ledger.ts'
import { runStatementsBench } from './statements.ts'
import { runDeliverablesBench } from './deliverables.ts'
import { runTimesheetsBench } from './timesheets.ts'
import { runJobAlertsBench } from './job-alerts.ts'

// `npm run bench`: every scenario in one run on this machine, so ratios compare like with like.
// Later issues add their scenarios below.
ensureBuild()
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const rows: Measured[] = []

const servePort = await freePort()
const baseline = await startProcess(
  [path.join(root, 'node_modules/@react-router/serve/bin.cjs'), 'build/server/index.js'],
  { PORT: String(servePort), HOST: '127.0.0.1', NODE_ENV: 'production' },
  `http://127.0.0.1:${servePort}/_bench/trivial`,
)
const workneer = await startWorkneer()
try {
  rows.push(
    await measure(
      '(a) trivial React Router page, @react-router/serve',
      `http://127.0.0.1:${servePort}/_bench/trivial`,
      { seconds },
    ),
  )
  rows.push(
    await measure('(a2) trivial page, Workneer server', `${workneer.url}/_bench/trivial`, { seconds }),
  )
  rows.push(await measure('(b) home page, Workneer server', `${workneer.url}/`, { seconds }))
  // Any cookie but the language keeps a request out of the visitor page cache (decision 033).
  rows.push(
    await measure('(b2) home page rendered every time, Workneer server', `${workneer.url}/`, {
      seconds,
      headers: { cookie: 'bench=rendered' },
    }),
  )
} finally {
  baseline.kill()
  workneer.child.kill()
}

printTable(rows)
const [a, , b, b2] = rows
console.log(
  `\nratio b/a (home on Workneer vs trivial page on @react-router/serve): ${(b.rps / a.rps).toFixed(2)}; rendered every time b2/a: ${(b2.rps / a.rps).toFixed(2)}`,
)

// Issue 15: the signed-in pages rendered for every request against row (a) (≥ 0.5×), the V8 heap
// bytes each request allocates, and the server's memory: after start (< 200 MB), under a mix of
// page and API reads, and that mix with the heap capped at 512 MB (≤ 10 % below uncapped).
await runSignedInBench()

// Issue 7: hub fan-out to 1,000 clients (Workneer, Socket.IO, bare ws), p99 latency with 2,000
// connections, memory per idle connection. Each server and the clients in their own processes.
await runHubsBench()

// Issue 4: per public page, the JavaScript and CSS the browser downloads (gzip).
await runPageBudgets()

// Issue 38: Lighthouse mobile on the visitor's pages and each role's signed-in pages (performance ≥ 95,
// LCP ≤ 2.0 s, TBT ≤ 150 ms). BENCH_LIGHTHOUSE=0 skips it.
if (process.env.BENCH_LIGHTHOUSE !== '0') await runLighthouseBench()

// Issue 6: Find Project with 100,000 projects and 300,000 proposals on SQLite and PostgreSQL:
// the filtered full-text list and project details with 50 proposals (p50/p95/p99, in process).
await runProjectsBench()

// Issue 5: Find Freelancers with 50,000 freelancers on SQLite and PostgreSQL: the filtered full-text
// search API (p50/p95/p99, in process; p95 < 30 ms) and the page signed in as a client (≥ 0.6× trivial).
await runFreelancersBench()

// Issue 14: commit to countNotify with the official SignalR client, per transport (WebSockets,
// Server-Sent Events, long polling), 50 samples each, on SQLite and PostgreSQL (p99 < 100 ms).
await runNotifyLatencyBench()

// Issue 16: a room of 10,000 messages opens its newest 50 (< 20 ms), the chat list of a user with
// 500 rooms (< 30 ms), on SQLite and PostgreSQL; send to delivery with 2,000 connections (p99 < 50 ms).
await runChatBench()
// Issue 17: ledger postings per second on SQLite and PostgreSQL (captures and releases, one at a
// time and 8 at once). `node bench/ledger.ts` runs it alone.
await runLedgerBench()
// Issue 17: a statement of 10,000 movements (first, last and a month's page; the whole CSV
// export) on SQLite and PostgreSQL. `node bench/statements.ts` runs it alone.
await runStatementsBench()
// Issue 40: a contract's register of 500 deliverables and 5,000 issues opens (its first page of
// 50 with their whole history) on SQLite and PostgreSQL (p95 < 50 ms). `node bench/deliverables.ts` runs it alone.
await runDeliverablesBench()
// Issue 40: a year of weekly timesheets for 1,000 hourly contracts (52,000 weeks left unanswered)
// approved, charged to the clients' saved cards and released in one run of the timesheet job,
// without blocking a request more than 50 ms, on SQLite and PostgreSQL (decision 341).
// `node bench/timesheets.ts` runs it alone.
await runTimesheetsBench()
// Issue 41: a published project matched against 100,000 saved searches and its alerts queued
// (< 200 ms), and 50,000 digests sent without blocking a request more than 50 ms, on SQLite and
// PostgreSQL (decision 328). `node bench/job-alerts.ts` runs it alone.
await runJobAlertsBench()
