import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openDatabase, migrateToLatest, type Db } from '../db/database.ts'
import { seedReference } from '../db/seed.ts'
import { enqueue } from './outbox.ts'
import { EMAIL_TOPIC } from './mailer.ts'
import { NOTIFY_TOPIC } from '../modules/projects/transition.ts'
import { projectsTestApi, publishedProject, RETAINING_WALL } from '../../tests/support/modules/projects.ts'

// The outbox never holds the server (issue 14, item 10), on SQLite where every query is
// synchronous: a real server process restarts over a backlog a crash left (3,000 pending rows),
// then takes questions on a project at about 500 writes a second (or half the server's capacity
// on a slower machine) for six seconds (longer than the 5 s poll) while another process asks
// /healthz every 20 ms. Every answer comes within 100 ms, the server's own work never holds its
// event loop for 50 ms, the backlog goes out after the server listens, not before, and everything
// is delivered in the end.
//
// On a shared two-core machine other processes may keep the server off the CPU for a while: the
// server notes each turn of its loop with the CPU it spent meanwhile (watched-server.ts), and a
// slow answer while the server had less than half a CPU is the machine's, reported, not held against it.
// Even so, a CI machine shared with other builds once saw a 68 ms hold: the 50 ms and 100 ms
// targets are proven on a quiet machine by `npm run proof` (part outbox-load, PROOF=1); `npm test`
// holds the server to four times them, which still fails an outbox that delivers a backlog in one go.
const root = path.resolve(import.meta.dirname, '../..')
const BACKLOG = 3_000
const LOAD_MS = 6_000
const WRITES_PER_SECOND = 500
// Writes sent one after another first, to find the server's capacity on this machine; and
// the least rate that still loads the outbox (each write is a notification to deliver).
const CALIBRATION_WRITES = 150
const MIN_WRITES_PER_SECOND = 50
const PROBE_EVERY_MS = 20
const proof = process.env.PROOF === '1'
const HEALTHZ_WITHIN_MS = proof ? 100 : 400
const IN_FLIGHT = 4
const OWN_HOLD_MS = proof ? 50 : 200
const TICK_MS = 10

describe('the outbox under a write load on SQLite', { timeout: 120_000 }, () => {
  // In memory where the machine has it (/dev/shm): a commit's fsync blocks a synchronous SQLite
  // for as long as the disk takes (2 ms on a shared test machine's disk), whoever commits; what is
  // measured here is how long the outbox holds the event loop, not how fast the disk is.
  const dataDir = fs.mkdtempSync(
    path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'workneer-never-blocks-'),
  )
  const file = path.join(dataDir, 'workneer.sqlite')
  let database: Db
  let child: ReturnType<typeof spawn> | undefined
  let stdout = ''
  let users: ReturnType<typeof projectsTestApi>
  let freelancerToken = ''
  let projectId = 0

  beforeAll(async () => {
    database = await openDatabase({ kind: 'sqlite', file })
    await migrateToLatest(database)
    await seedReference(database.db)
    users = projectsTestApi(database, dataDir)
    const [client, freelancer] = [await users.user('client'), await users.user('freelancer')]
    freelancerToken = freelancer.token
    projectId = await publishedProject(users, database, client, RETAINING_WALL)
    // What a crash under load leaves: mails and the client's notifications.
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 50; i++)
        await enqueue(trx, EMAIL_TOPIC, {
          to: `reader-${i}@example.com`,
          subject: 'Welcome',
          text: 'Welcome to Workneer.',
          html: '<p>Welcome to Workneer.</p>',
          kind: 'backlog',
        })
      for (let i = 50; i < BACKLOG; i++)
        await enqueue(trx, NOTIFY_TOPIC, {
          userIds: [client.id],
          kind: 'newComment',
          projectId,
          type: 'Project',
          params: { title: 'Retaining wall for a sloping garden' },
        })
    })
    await users.close()
    await database.close()
  }, 60_000)

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  /** Starts the real server (startServer, without the web app) on this data folder; resolves with its port once it serves. */
  function startChild() {
    child = spawn(process.execPath, ['tests/support/watched-server.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the server did not start: ${stdout.slice(-2000)}`)),
        60_000,
      )
      child!.stdout!.on('data', (d) => {
        stdout += d
        const ready = /\{"ready":(\d+)\}/.exec(stdout)
        if (ready) {
          clearTimeout(timer)
          resolve(Number(ready[1]))
        }
      })
      child!.once('exit', (code) => reject(new Error(`the server exited (${code}): ${stdout.slice(-2000)}`)))
    })
  }

  const pendingRows = async (db: Db) =>
    Number(
      (
        await db.db
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow()
      ).n,
    )

  test(`/healthz answers within ${HEALTHZ_WITHIN_MS} ms throughout; the backlog goes after the server listens`, async () => {
    const port = await startChild()
    // The server serves before the backlog has gone (before, a start delivered it all first).
    const reader = await openDatabase({ kind: 'sqlite', file })
    const pendingAtStart = await pendingRows(reader)
    await reader.close()
    expect
      .soft(pendingAtStart, 'rows still pending when the server first answers')
      .toBeGreaterThan(BACKLOG / 2)
    const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT })
    const request = (method: string, pathname: string, body?: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method,
            path: pathname,
            agent,
            headers: body
              ? {
                  ...headers,
                  'content-type': 'application/json',
                  'content-length': String(Buffer.byteLength(body)),
                }
              : headers,
          },
          (res) => {
            res.resume()
            res.once('end', () => resolve(res.statusCode ?? 0))
          },
        )
        req.once('error', reject)
        req.end(body)
      })

    const body = JSON.stringify({ body: 'Is there a soil report for the site?' })
    const ask = () =>
      request('POST', `/api/v1/projects/comment/${projectId}`, body, {
        authorization: `Bearer ${freelancerToken}`,
      })
    // The rate: 500 writes a second, or half of what this machine's server answers one after another
    // (round trips included, so its main thread is busy well under half the time) if that is
    // less. What is claimed is that the outbox never holds the loop, not the server's capacity: a
    // slow shared machine's server took 93–96 % of its main thread's CPU at 500 a second (and the
    // backlog), and at full capacity every answer queues, whatever the outbox does.
    // The first question compiles its code path, one turn of about 40 ms on a slow machine: that is
    // the first request's cost, not the outbox's, so the loop is judged from after it.
    expect(await ask()).toBe(200)
    const watchedFrom = performance.timeOrigin + performance.now()
    const calibrating = performance.now()
    // One at a time, so the calibration itself never queues requests behind each other (its ticks
    // are measured with the rest, and the backlog is going out meanwhile).
    for (let i = 0; i < CALIBRATION_WRITES; i++) await ask()
    const capacity = CALIBRATION_WRITES / ((performance.now() - calibrating) / 1000)
    const rate = Math.min(WRITES_PER_SECOND, Math.floor(capacity / 2))
    expect(rate, "writes a second at half the server's capacity on this machine").toBeGreaterThanOrEqual(
      MIN_WRITES_PER_SECOND,
    )

    // The probe, in its own process: a fresh connection every 20 ms, timed to the last byte.
    const probe = spawn(
      process.execPath,
      ['tests/support/healthz-probe.ts', String(port), String(LOAD_MS), String(PROBE_EVERY_MS)],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let probeOutput = ''
    probe.stdout.on('data', (d) => (probeOutput += d))
    const probing = new Promise<{ times: Array<[number, number]>; failures: string[] }>((resolve, reject) =>
      probe.once('exit', (code) =>
        code === 0 ? resolve(JSON.parse(probeOutput)) : reject(new Error(`the probe exited (${code})`)),
      ),
    )
    const started = performance.now()

    // The load: questions on the project, paced at `rate`, a few in flight (as many as the server
    // needs to keep up; more would only queue in front of the probe).
    let sent = 0
    let answered = 0
    const failures: string[] = []
    const loading = (async () => {
      const inFlight = new Set<Promise<void>>()
      while (performance.now() - started < LOAD_MS) {
        const due = Math.floor(((performance.now() - started) / 1000) * rate)
        while (sent < due && inFlight.size < IN_FLIGHT) {
          sent++
          const p: Promise<void> = ask().then(
            (status) => {
              if (status === 200) answered++
              else failures.push(`status ${status}`)
            },
            (error: Error) => void failures.push(error.message),
          )
          inFlight.add(p)
          void p.finally(() => inFlight.delete(p))
        }
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
      await Promise.all(inFlight)
    })()
    const [{ times: probes, failures: probeFailures }] = await Promise.all([probing, loading])
    const seconds = (performance.now() - started) / 1000

    // The server's loop, tick by tick: [when, how late, CPU spent since the tick before].
    const ticks = await new Promise<Array<[number, number, number]>>((resolve) => {
      const before = stdout.length
      const onData = () => {
        const report = /\{"ticks":.*\}\n/.exec(stdout.slice(before))
        if (report) {
          child!.stdout!.off('data', onData)
          resolve(JSON.parse(report[0]).ticks)
        }
      }
      child!.stdout!.on('data', onData)
      child!.stdin!.write('report\n')
    })
    // A late tick whose CPU covers its lateness was the server's own work holding the loop.
    const longestHold = Math.max(
      0,
      ...ticks
        .filter(([at]) => at >= watchedFrom)
        .map(([, lateMs, cpuMs]) => Math.min(lateMs, Math.max(0, cpuMs - TICK_MS))),
    )
    // The share of a CPU the server had while an answer was on its way: below half, the machine
    // kept it waiting (a fair share of one core is far more than the load needs).
    const cpuShare = (from: number, to: number) => {
      const within = ticks.filter(([at, lateMs]) => at + TICK_MS + lateMs > from && at < to)
      const wall = within.reduce((sum, [, lateMs]) => sum + TICK_MS + lateMs, 0)
      return wall ? within.reduce((sum, [, , cpuMs]) => sum + cpuMs, 0) / wall : 1
    }
    const slow = probes.filter(([, ms]) => ms > HEALTHZ_WITHIN_MS)
    const theServers = slow.filter(([at, ms]) => cpuShare(at, at + ms) >= 0.5).map(([, ms]) => Math.round(ms))
    const times = probes.map(([, ms]) => ms).sort((a, b) => a - b)
    console.log(
      `healthz under ${Math.round(answered / seconds)} writes/s (rate ${rate}, the server's capacity ${Math.round(capacity)}): ${probes.length} probes, p50 ${times[Math.floor(times.length / 2)].toFixed(1)} ms, p99 ${times[Math.floor(times.length * 0.99)].toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms; ` +
        `the server's longest hold of its loop ${longestHold.toFixed(1)} ms; ${slow.length - theServers.length} answers over ${HEALTHZ_WITHIN_MS} ms while the machine kept the server off the CPU`,
    )
    expect(failures.slice(0, 5)).toEqual([])
    expect(probeFailures.slice(0, 5)).toEqual([])
    // The load and the probe ran (a busy shared machine may slow both; the rate is printed above).
    expect(answered).toBeGreaterThan((LOAD_MS / 1000) * rate * 0.4)
    expect(probes.length).toBeGreaterThan(LOAD_MS / PROBE_EVERY_MS / 6)
    expect
      .soft(theServers, `answers over ${HEALTHZ_WITHIN_MS} ms while the server's own work held its loop (ms)`)
      .toEqual([])
    expect.soft(longestHold, "the server's longest hold of its event loop (ms)").toBeLessThan(OWN_HOLD_MS)

    // Everything is delivered in the end.
    const reopened = await openDatabase({ kind: 'sqlite', file })
    try {
      const deadline = Date.now() + 60_000
      while ((await pendingRows(reopened)) > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 200))
      expect(await pendingRows(reopened)).toBe(0)
    } finally {
      await reopened.close()
      agent.destroy()
    }
  })
})
