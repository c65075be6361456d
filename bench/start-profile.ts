import path from 'node:path'
import { chromium } from '@playwright/test'
import { ensureBuild, startWorkneer } from './lib.ts'
import { AUTH_SECRET, DEMO_PASSWORD, demoSessions } from './signed-in.ts'
import { adminToken } from './lighthouse.ts'
import { SAMPLES_CATEGORY, describeSamples, samplesOf, type ProfileEvent } from './cpu-samples.ts'

// Issue 38's blocking time: what a signed-in page's start does on the browser's main thread. Opens
// a page of the demo marketplace in Debian's Chromium with a trace, as Lighthouse observes it
// (unthrottled), and prints each task's CPU time (the thread's own time, so other work on a loaded
// machine does not inflate it) with what it ran, and the blocking time Lighthouse's simulation would
// count from them (each task ×4, over 50 ms, after the first paint). Counts, not wall time.
// `node bench/start-profile.ts [/path ...]`: the freelancer's session, or BENCH_PROFILE_SESSION=client,
// admin or visitor (none); `:contract` in a path is the project of the freelancer's contract.
// BENCH_PROFILE_SAMPLES=1 adds V8's CPU samples and prints, under each task of 10 ms or more, the
// functions they name (an unminified build names React's: `react-router build --minify false`).
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const withSamples = process.env.BENCH_PROFILE_SAMPLES === '1'
const categories = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'loading',
  ...(withSamples ? [SAMPLES_CATEGORY] : []),
]
type TraceEvent = {
  name: string
  ph: string
  ts: number
  dur?: number
  tdur?: number
  pid: number
  tid: number
  args?: { data?: { url?: string; functionName?: string; frame?: string }; name?: string }
}

/** A short name for what an event inside a task ran. */
function labelOf(e: TraceEvent) {
  const data = e.args?.data
  const file = data?.url ? path.basename(new URL(data.url, 'http://x').pathname) || 'document' : ''
  if (e.name === 'FunctionCall') return `call ${data?.functionName || '(anonymous)'} ${file}`
  if (e.name === 'EvaluateScript' || e.name === 'v8.evaluateModule') return `evaluate ${file || 'inline'}`
  return e.name
}

/** The main thread's tasks: CPU ms of each, its start (ms from the navigation) and its heaviest children. */
function tasksOf(events: TraceEvent[]) {
  // The page's renderer is the one that painted (the blank page before it had a renderer of its own).
  const paintEvent = events.find((e) => e.name === 'firstContentfulPaint')
  const main = events.find(
    (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === paintEvent?.pid,
  )
  const onMain = events.filter((e) => e.pid === main?.pid && e.tid === main?.tid && e.ph === 'X')
  const start =
    events.find((e) => e.name === 'navigationStart' && e.pid === main?.pid)?.ts ?? onMain[0]?.ts ?? 0
  const paint = paintEvent?.ts ?? start
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ts >= start)
  const samples = withSamples && main ? samplesOf(events as ProfileEvent[], main.pid, main.tid) : []
  return {
    paintMs: (paint - start) / 1000,
    tasks: tasks.map((task) => {
      const inside = onMain.filter(
        (e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0),
      )
      const children = new Map<string, number>()
      for (const e of inside) {
        const label = labelOf(e)
        if (/^(call|evaluate|ParseHTML|Layout|UpdateLayoutTree|Paint|MajorGC|MinorGC|v8.compile)/.test(label))
          children.set(label, (children.get(label) ?? 0) + (e.tdur ?? 0) / 1000)
      }
      return {
        at: (task.ts - start) / 1000,
        cpu: (task.tdur ?? task.dur ?? 0) / 1000,
        afterPaint: task.ts >= paint,
        top: [...children].sort((a, b) => b[1] - a[1]).slice(0, 3),
        samples:
          samples.length && (task.tdur ?? 0) >= 10_000
            ? describeSamples(samples, task.ts, task.ts + (task.dur ?? 0))
            : null,
      }
    }),
  }
}

export async function traceStart(base: string, pagePath: string, token: string) {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-sync'],
  })
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } })
    if (token) await context.addCookies([{ name: 'session', value: token, url: base }])
    const page = await context.newPage()
    const errors: string[] = []
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(e.message))
    await browser.startTracing(page, { categories })
    await page.goto(base + pagePath, { waitUntil: 'load' })
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(2500) // the SignalR client loads when the page is idle, at most 2 s later
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }
    const scripts = await page.evaluate(
      () => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js')).length,
    )
    return { ...tasksOf(trace.traceEvents), scripts, errors }
  } finally {
    await browser.close()
  }
}

if (import.meta.main) {
  const paths = process.argv.slice(2).filter((a) => a.startsWith('/'))
  ensureBuild()
  const server = await startWorkneer({ SEED_DEMO: 'true', DEMO_PASSWORD, AUTH_SECRET }, 'inherit')
  try {
    const demo = await demoSessions(server.url)
    const session = process.env.BENCH_PROFILE_SESSION
    const token =
      session === 'admin'
        ? await adminToken(server.url, server.dataDir)
        : session === 'visitor'
          ? ''
          : session === 'client'
            ? demo.client
            : demo.freelancer
    for (const p of (paths.length ? paths : ['/dashboard']).map((p) =>
      p.replace(':contract', String(demo.contractProject)),
    )) {
      const { paintMs, tasks, scripts, errors } = await traceStart(server.url, p, token)
      const cpu = tasks.reduce((s, t) => s + t.cpu, 0)
      const blocking = tasks.filter((t) => t.afterPaint).reduce((s, t) => s + Math.max(0, 4 * t.cpu - 50), 0)
      console.log(
        `\n${p}: ${scripts} script files; first paint ${paintMs.toFixed(0)} ms; main thread CPU ${cpu.toFixed(0)} ms in ${tasks.length} tasks; ×4 blocking after the paint ${blocking.toFixed(0)} ms`,
      )
      if (errors.length) console.log('errors:', errors)
      for (const t of tasks.filter((t) => t.cpu >= 3)) {
        console.log(
          `  at ${t.at.toFixed(0).padStart(5)} ms  CPU ${t.cpu.toFixed(1).padStart(6)} ms  ${t.top.map(([k, ms]) => `${k} ${ms.toFixed(1)}`).join(' | ')}`,
        )
        if (t.samples)
          for (const [what, list] of Object.entries(t.samples))
            if (Array.isArray(list) && list.length)
              console.log(`      ${what} (of ${t.samples.count} samples): ${list.join(' | ')}`)
      }
    }
  } finally {
    server.child.kill()
  }
}
