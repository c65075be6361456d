import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseTarget } from '#server/config.ts'
import { openDatabase } from '#server/db/database.ts'
import { demoClients, demoFreelancers, demoProjects } from '#server/db/seed-data/demo.ts'
import { createTestDatabase, type TestDatabase, type TestDialect } from './databases.ts'
import { ensureTestBuild } from '../support/test-build.ts'

// Issue 14, item 11: the first start on an empty database is stopped at many moments (SIGINT,
// SIGTERM, SIGKILL), from the migrations through the demo marketplace to the first request; the
// next start must serve the whole demo, each account, profile and project exactly once. The real
// entry (server/boot.js) runs as `npm start` runs it, on a SQLite file and on PostgreSQL.
const root = path.resolve(import.meta.dirname, '../..')
const password = 'demo-first-start-1234'
const signals = ['SIGINT', 'SIGTERM', 'SIGKILL'] as const
const migratedLine = /"msg":"migrations applied"/
// The catalogue's, the content's and the demo's tables, counted after a start that nobody
// stopped and after each recovery.
const wholeTables = [
  'category',
  'subcategory',
  'skill',
  'subcategory_skill',
  'industry',
  'country',
  'language',
  'faq_entry',
  'blog_post',
  'content_page',
  'app_user',
  'user_role',
  'freelancer_profile',
  'freelancer_language',
  'freelancer_subcategory',
  'freelancer_skill',
  'client_profile',
  'project',
  'project_skill',
  'proposal',
  'contract',
  'installment',
  'project_activity',
] as const

interface Start {
  child: ReturnType<typeof spawn>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  output(): string
  /** Milliseconds from the spawn to the first line matching `pattern` (waits for it). */
  at(pattern: RegExp, timeoutMs?: number): Promise<number>
}

function start(target: DatabaseTarget, dataDir: string): Start {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://127.0.0.1',
    SEED_DEMO: 'true',
    DEMO_PASSWORD: password,
  }
  if (target.kind === 'postgres') env.DATABASE_URL = target.url
  const spawned = performance.now()
  const child = spawn(process.execPath, ['server/boot.js'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const seen: Array<{ line: string; ms: number }> = []
  const onData = (d: Buffer) => {
    output += d
    for (const line of String(d).split('\n')) if (line) seen.push({ line, ms: performance.now() - spawned })
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return {
    child,
    exited,
    output: () => output,
    async at(pattern, timeoutMs = 60_000) {
      const deadline = performance.now() + timeoutMs
      for (;;) {
        const hit = seen.find((s) => pattern.test(s.line))
        if (hit) return hit.ms
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`the server stopped before ${pattern}:\n${output}`)
        if (performance.now() > deadline) throw new Error(`no ${pattern} after ${timeoutMs} ms:\n${output}`)
        await new Promise((r) => setTimeout(r, 20))
      }
    },
  }
}

const listening = /"msg":"Workneer is listening/
const portOf = (s: Start) =>
  Number(
    /"port":(\d+)/.exec(
      s
        .output()
        .split('\n')
        .find((l) => listening.test(l)) ?? '',
    )?.[1],
  )

async function countRows(target: DatabaseTarget) {
  const database = await openDatabase(target)
  try {
    const counts: Record<string, number> = {}
    for (const table of wholeTables)
      counts[table] = Number(
        (
          await database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const emails = await database.db.selectFrom('app_user').select('email').execute()
    const titles = await database.db.selectFrom('project').select('title').execute()
    const profiles = await database.db
      .selectFrom('freelancer_profile as fp')
      .innerJoin('app_user as u', 'u.id', 'fp.user_id')
      .select(['u.email', 'fp.title'])
      .execute()
    return {
      counts,
      emails: emails.map((e) => e.email).sort(),
      titles: titles.map((t) => t.title).sort(),
      profiles,
    }
  } finally {
    await database.close()
  }
}

/** What the server printed and did when it was stopped, for a failing case's message. */
const story = (when: string, signal: string, s: Start) =>
  `stopped by ${signal} ${when}:\n${s.output().slice(-3000)}`

// How many stops: while booting, along the demo's load, how many must land inside the load, and
// whether two stops around the first request follow. `npm test` stops each start at 7 and 3 moments;
// PROOF=1 (npm run proof, part crash) at 12 and 7, with stops twice as close along the load (decision
// 296). What follows the demo's commit does not depend on the database: `npm test` stops it on
// SQLite only (decision 359).
const long = process.env.PROOF === '1'
const sqliteStops = long
  ? { boot: 2, along: 8, inside: 3, firstRequest: true }
  : { boot: 1, along: 4, inside: 2, firstRequest: true }
const postgresStops = long
  ? { boot: 1, along: 4, firstRequest: true }
  : { boot: 1, along: 2, firstRequest: false }

describe('a first start stopped at any moment', { timeout: 240_000 }, () => {
  const made: Array<TestDatabase | string> = []
  let reference: Awaited<ReturnType<typeof countRows>>
  let referenceTarget: DatabaseTarget
  const timeline: Record<TestDialect, { migrated: number; loaded: number; demo: number; listening: number }> =
    {} as never

  async function fresh(dialect: TestDialect) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-first-start-'))
    made.push(dataDir)
    if (dialect === 'sqlite')
      return {
        dataDir,
        target: { kind: 'sqlite', file: path.join(dataDir, 'workneer.sqlite') } as DatabaseTarget,
      }
    const database = await createTestDatabase('postgres')
    made.push(database)
    return { dataDir, target: database.target }
  }

  /** A start nobody stops: when its steps end, and what a whole demo marketplace counts. */
  async function calibrate(dialect: TestDialect) {
    const { dataDir, target } = await fresh(dialect)
    const s = start(target, dataDir)
    timeline[dialect] = {
      migrated: await s.at(migratedLine),
      loaded: await s.at(/"msg":"demo projects ready"/),
      demo: await s.at(/"msg":"demo marketplace ready/),
      listening: await s.at(listening),
    }
    s.child.kill('SIGTERM')
    expect((await s.exited).code).toBe(0)
    return { target, rows: await countRows(target) }
  }

  async function demoMarker(target: DatabaseTarget) {
    const database = await openDatabase(target)
    try {
      return await database.db.selectFrom('seed_marker').selectAll().where('name', '=', 'demo').execute()
    } finally {
      await database.close()
    }
  }

  beforeAll(async () => {
    // The built web app, as `npm start` serves it (built here when missing or stale).
    ensureTestBuild('E2E')
    ;({ target: referenceTarget, rows: reference } = await calibrate('sqlite'))
  }, 240_000)

  afterAll(async () => {
    for (const m of made) {
      if (typeof m === 'string') fs.rmSync(m, { recursive: true, force: true })
      else await m.drop()
    }
    // Dropping the PostgreSQL databases waits for their last connections: slow on a loaded machine.
  }, 120_000)

  it('an unstopped start loads the whole demo marketplace once, and marks it loaded', async () => {
    expect(reference.emails).toEqual([...demoClients, ...demoFreelancers].map((a) => a.email).sort())
    expect(reference.titles).toEqual(demoProjects.map((p) => p.title).sort())
    expect(reference.profiles.map((p) => [p.email, p.title]).sort()).toEqual(
      demoFreelancers.map((f) => [f.email, f.title]).sort(),
    )
    expect(reference.counts.client_profile).toBe(demoClients.length)
    expect(reference.counts.contract).toBe(1)
    expect(await demoMarker(referenceTarget)).toEqual([
      expect.objectContaining({ name: 'demo', attempts: 1, completed_at: expect.any(String) }),
    ])
  })

  /** Where a stopped start left the demo: not begun, begun and not committed, or committed. */
  async function demoState(target: DatabaseTarget): Promise<'before' | 'inside' | 'after'> {
    if (target.kind === 'sqlite' && !fs.existsSync(target.file)) return 'before'
    try {
      const [marker] = await demoMarker(target)
      return !marker ? 'before' : marker.completed_at ? 'after' : 'inside'
    } catch {
      return 'before' // stopped before the migration that makes the marker
    }
  }

  /**
   * Stops first starts at moments spread over the start: while booting and migrating (from the
   * spawn); then from the start's own "migrations applied" line, so that the boot's jitter does
   * not move them, along the reference seed and the demo's load (most of them: the longest step,
   * with the most rows; SIGKILL every other time); then between it and the first request, and just
   * after. The load's end is its last step's line ("demo projects ready"). Other
   * work on the machine changes the load's length from start to start: a stop that finds it
   * already committed takes its moment as the load's end. Returns how many stops fell inside the load.
   */
  async function matrix(dialect: TestDialect, { boot, along, firstRequest }: typeof postgresStops) {
    const { migrated, loaded, demo, listening: ready } = timeline[dialect]
    for (let i = 0; i < boot; i++)
      await stopAndRestart(dialect, {
        from: 'spawn',
        ms: migrated * (0.95 - 0.25 * i),
        signal: i % 2 ? 'SIGTERM' : 'SIGINT',
      })
    let load = loaded - migrated
    let inside = 0
    for (let i = 0; i < along; i++) {
      const ms = (load * (i + 0.5)) / along
      const found = await stopAndRestart(dialect, {
        from: 'migrated',
        ms,
        signal: i % 2 ? signals[(i >> 1) % 2] : 'SIGKILL',
      })
      if (found === 'inside') inside++
      if (found === 'after') load = ms
    }
    if (!firstRequest) return inside
    await stopAndRestart(dialect, {
      from: 'migrated',
      ms: demo - migrated + (ready - demo) / 2,
      signal: 'SIGINT',
    })
    await stopAndRestart(dialect, { from: 'migrated', ms: ready - migrated + 50, signal: 'SIGKILL' })
    return inside
  }

  type Moment = { from: 'spawn' | 'migrated'; ms: number; signal: (typeof signals)[number] }
  /** Stops a first start at `moment`, starts again and checks the demo; says where the stop left the demo's load. */
  async function stopAndRestart(dialect: TestDialect, moment: Moment) {
    const { signal } = moment
    const { dataDir, target } = await fresh(dialect)
    const first = start(target, dataDir)
    if (moment.from === 'migrated') await first.at(migratedLine)
    await new Promise((r) => setTimeout(r, moment.ms))
    first.child.kill(signal)
    const exit = await first.exited
    const when = `${Math.round(moment.ms)} ms after the ${moment.from === 'spawn' ? 'spawn' : 'migrations'}`
    // SIGINT and SIGTERM stop it cleanly at any moment once it runs (before the entry has loaded
    // there is nothing open, and Node's default ends it).
    if (signal !== 'SIGKILL')
      expect(
        exit.code === 0 || (exit.signal === signal && first.output() === ''),
        story(when, signal, first),
      ).toBe(true)
    if (target.kind === 'sqlite' && fs.existsSync(target.file)) {
      const file = new DatabaseSync(target.file)
      expect(file.prepare('pragma integrity_check').get(), story(when, signal, first)).toEqual({
        integrity_check: 'ok',
      })
      file.close()
    }
    const found = await demoState(target)

    const next = start(target, dataDir)
    await next.at(listening)
    const base = `http://127.0.0.1:${portOf(next)}/api/v1`
    const listed = await (await fetch(`${base}/projects?pageSize=50`)).json()
    const login = await fetch(`${base}/identity/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demoFreelancers[0].email, password }),
    })
    next.child.kill('SIGTERM')
    expect((await next.exited).code).toBe(0)
    const after = await countRows(target)
    const context = `${story(when, signal, first)}\n--- next start:\n${next.output().slice(-2000)}`
    expect(after.emails, context).toEqual(reference.emails)
    expect(after.titles, context).toEqual(reference.titles)
    expect(after.counts, context).toEqual(reference.counts)
    expect(after.profiles.map((p) => [p.email, p.title]).sort(), context).toEqual(
      reference.profiles.map((p) => [p.email, p.title]).sort(),
    )
    expect(listed.total, context).toBe(demoProjects.length - 1)
    expect(login.status, context).toBe(200)
    if (found === 'inside')
      expect(next.output(), context).toMatch(/an earlier start stopped while loading the demo marketplace/)
    return found
  }

  const moments = (stops: typeof postgresStops) => stops.boot + stops.along + (stops.firstRequest ? 2 : 0)
  it(`on SQLite, stopped at ${moments(sqliteStops)} moments by SIGINT, SIGTERM or SIGKILL, the next start serves the whole demo marketplace`, async () => {
    // The matrix is worth its time only if it stops the demo's load itself, and more than once.
    expect(await matrix('sqlite', sqliteStops)).toBeGreaterThanOrEqual(sqliteStops.inside)
  })

  it(`on PostgreSQL, stopped at ${moments(postgresStops)} moments, the next start serves the whole demo marketplace`, async () => {
    expect((await calibrate('postgres')).rows.counts).toEqual(reference.counts)
    expect(await matrix('postgres', postgresStops)).toBeGreaterThanOrEqual(1)
  })

  it('a SIGTERM during the start ends it at once with exit code 0, and says the next start finishes the work', async () => {
    const { dataDir, target } = await fresh('sqlite')
    const s = start(target, dataDir)
    await s.at(migratedLine)
    s.child.kill('SIGTERM')
    expect(await s.exited).toEqual({ code: 0, signal: null })
    expect(s.output()).toMatch(/SIGTERM while starting: stopping/)
    expect(s.output()).not.toMatch(listening)
  })
})
