import fs from 'node:fs'
import type { JSONReport, JSONReportSuite } from '@playwright/test/reporter'

// Where an end-to-end run's wall time went, from Playwright's JSON report (decision 357): per
// project and per spec file, the tests' own durations beside the time between them (the worker's
// start, and a file's afterAll; Playwright 1.65 counts a file's beforeAll, where a spec starts its
// server, in its first test's duration). Usage:
//   PLAYWRIGHT_JSON_OUTPUT_NAME=run.json npx playwright test --reporter=list,json
//   node bench/e2e-timeline.ts run.json [how many files to list, 15]

interface Result {
  project: string
  file: string
  worker: number
  start: number
  end: number
  duration: number
  status: string
}

function results(suite: JSONReportSuite, file: string, out: Result[]) {
  for (const spec of suite.specs)
    for (const test of spec.tests)
      for (const r of test.results) {
        // A skipped test ran nowhere (its worker index is -1 or its time 0).
        if (r.status === 'skipped') continue
        const start = Date.parse(r.startTime)
        out.push({
          project: test.projectName,
          file,
          worker: r.parallelIndex,
          start,
          end: start + r.duration,
          duration: r.duration,
          status: r.status ?? 'unknown',
        })
      }
  for (const child of suite.suites ?? []) results(child, file, out)
}

interface Span {
  project: string
  file: string
  tests: number
  testTime: number
  wall: number
}

/** One span per run of a file in a worker: from the end of what that worker ran before it to its last test's end. */
function spans(all: Result[], runStart: number) {
  const byWorker = Map.groupBy(all, (r) => r.worker)
  const out: Span[] = []
  for (const list of byWorker.values()) {
    list.sort((a, b) => a.start - b.start)
    let previousEnd = runStart
    let current: Span | undefined
    for (const r of list) {
      if (!current || current.file !== r.file || current.project !== r.project) {
        current = { project: r.project, file: r.file, tests: 0, testTime: 0, wall: r.start - previousEnd }
        out.push(current)
      }
      current.tests++
      current.testTime += r.duration
      current.wall += r.end - Math.max(previousEnd, r.start)
      previousEnd = r.end
    }
  }
  return out
}

const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`
const [reportFile, top = '15'] = process.argv.slice(2)
if (!reportFile) throw new Error('usage: node bench/e2e-timeline.ts <report.json> [files to list]')
const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as JSONReport
const all: Result[] = []
for (const suite of report.suites) results(suite, suite.file, all)
const runStart = Date.parse(report.stats.startTime)
const list = spans(all, runStart)

console.log(
  `run: ${s(report.stats.duration)} wall (${(report.stats.duration / 60_000).toFixed(1)} min), ` +
    `${report.stats.expected} passed, ${report.stats.flaky} flaky, ${report.stats.unexpected} failed, ` +
    `${new Set(all.map((r) => r.worker)).size} workers`,
)
console.log('\nproject        files  tests  test time  between tests  worker time  first start → last end')
for (const [project, group] of Map.groupBy(list, (x) => x.project)) {
  const testTime = group.reduce((t, x) => t + x.testTime, 0)
  const wall = group.reduce((t, x) => t + x.wall, 0)
  const own = all.filter((r) => r.project === project)
  const first = Math.min(...own.map((r) => r.start)) - runStart
  const last = Math.max(...own.map((r) => r.end)) - runStart
  console.log(
    `${project.padEnd(14)} ${String(group.length).padStart(5)}  ${String(group.reduce((t, x) => t + x.tests, 0)).padStart(5)}` +
      `  ${s(testTime).padStart(9)}  ${s(wall - testTime).padStart(13)}  ${s(wall).padStart(11)}  ${s(first)} → ${s(last)}`,
  )
}
console.log(`\nslowest ${top} spec files (worker time: tests, and the hooks and start before them)`)
for (const x of list.sort((a, b) => b.wall - a.wall).slice(0, Number(top)))
  console.log(
    `${s(x.wall).padStart(6)}  tests ${s(x.testTime).padStart(6)}  hooks ${s(x.wall - x.testTime).padStart(5)}  ${x.project.padEnd(13)} ${x.file} (${x.tests})`,
  )
