import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import type { Account } from '../tests/support/accounts.ts'
import { startWorkneer, root } from './lib.ts'
import { marketplaceFetch, type MarketplaceRequest } from './marketplace-fetch.ts'
import { cpuSince, cpuTotal, threadCpu, type ThreadCpu } from './thread-cpu.ts'

// The server's CPU time per request of each kind of step of `npm run load` (bench/load.ts), for
// this checkout and others, the same requests in the same sitting: what a change costs, measured in
// what a loaded machine does not distort (CPU time, not wall time). Each step kind runs `--count`
// times in a row, one request at a time, after a warm-up; the server's threads are read from
// /proc before and after, including the work the step leaves behind (the outbox's deliveries)
// until the server is idle again, less what it uses idle.
//   node bench/step-cost.ts --build before=/work/before-1ec4eb2 --build after=. --count 60
const { values: options } = parseArgs({
  options: {
    build: { type: 'string', multiple: true, default: [`this=${root}`] },
    count: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '1' },
    // Where to write when each measured step ran (CLOCK_MONOTONIC µs, a CPU profile's clock), so a
    // profile of the server (LOAD_SERVER_NODE_ARGS='--cpu-prof …') can be split by step.
    marks: { type: 'string' },
  },
})
const count = Number(options.count)
const PASSWORD = 'load test password 1234'
const IDLE_TICK_MS = 250

interface Cost extends ThreadCpu {
  requests: number
  wallMs: number
}

/** A migrated database with `n` clients and `n` freelancers, made by the checkout's own code (its own password hashing). */
async function prepare(checkout: string, dataDir: string, n: number) {
  const file = path.join(dataDir, 'workneer.sqlite')
  const { openDatabase, migrateToLatest } = await import(path.join(checkout, 'server/db/database.ts'))
  const { seedReference } = await import(path.join(checkout, 'server/db/seed.ts'))
  const { writeAccounts } = await import(path.join(checkout, 'tests/support/accounts.ts'))
  const setup = await openDatabase({ kind: 'sqlite', file })
  await migrateToLatest(setup)
  await seedReference(setup.db)
  const people = (role: 'client' | 'freelancer') =>
    Array.from({ length: n }, (_, i): Account => ({
      email: `cost-${role}-${i}@example.test`,
      firstName: 'Cost',
      lastName: `${role} ${i}`,
      roles: [role === 'client' ? 2 : 4],
      accountType: role,
    }))
  const clients = people('client')
  const freelancers = people('freelancer')
  await writeAccounts(setup, [...clients, ...freelancers], PASSWORD)
  const subcategories = (await setup.db.selectFrom('subcategory').select('id').execute()).map(
    (r: { id: number }) => r.id,
  )
  await setup.close()
  return { clients, freelancers, subcategory: subcategories[0] as number }
}

function client(base: string) {
  let address = 0
  return async function call(pathname: string, init: Omit<MarketplaceRequest, 'from'> = {}) {
    // As the load does: each sign-in from its own address, so none meets the address's limit.
    const from = `10.78.${Math.floor(address / 250) % 250}.${address++ % 250}`
    const r = await marketplaceFetch(base, pathname, { ...init, from })
    const text = await r.text()
    if (r.status >= 400)
      throw new Error(`${init.method ?? 'GET'} ${pathname}: ${r.status} ${text.slice(0, 300)}`)
    return r.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : {}
  }
}

/** Waits until the server has used (almost) no CPU for two ticks in a row, at most 10 s. */
async function settle(pid: number) {
  let quiet = 0
  let last = cpuTotal(threadCpu(pid))
  for (let waited = 0; quiet < 2 && waited < 10_000; waited += IDLE_TICK_MS) {
    await new Promise((r) => setTimeout(r, IDLE_TICK_MS))
    const now = cpuTotal(threadCpu(pid))
    quiet = now - last <= 10 ? quiet + 1 : 0
    last = now
  }
}

/** Runs every step kind of the load's mix `n` times against one server; what each cost. */
async function walk(
  call: ReturnType<typeof client>,
  people: Awaited<ReturnType<typeof prepare>>,
  n: number,
  measure: (name: string, requests: number, run: () => Promise<void>) => Promise<void>,
) {
  const { clients, freelancers, subcategory } = people
  const each = async <T>(list: T[], run: (item: T, i: number) => Promise<void>) => {
    for (const [i, item] of list.slice(0, n).entries()) await run(item, i)
  }
  const tokens = new Map<string, { token: string; id: number }>()
  const signIn = async (a: Account) => {
    const r = await call('/api/v1/identity/login', {
      method: 'POST',
      body: { email: a.email, password: PASSWORD },
    })
    tokens.set(a.email, { token: r.token, id: r.user.id })
  }
  await measure('sign in', 2 * n, async () => {
    await each(clients, signIn)
    await each(freelancers, signIn)
  })
  const times = (path: string) => async () => {
    for (let i = 0; i < n; i++) await call(path)
  }
  await measure('visitor: home', n, times('/'))
  let found: { data: Array<{ id: number }> } = { data: [] }
  await measure('visitor: search projects (API)', n, async () => {
    for (let i = 0; i < n; i++) found = await call('/api/v1/projects?search=wall&page=1')
  })
  await measure('visitor: Find Project page', n, times('/projects?search=wall'))
  const token = (a: Account) => tokens.get(a.email)!.token
  const installments = [
    { title: 'Design', amountMinor: 40_000 },
    { title: 'Drawings', amountMinor: 20_000 },
  ]
  const projects: number[] = []
  await measure('client: post a project', n, () =>
    each(clients, async (a, i) => {
      const body = {
        title: `Load retaining wall ${i}`,
        description: 'A cantilever retaining wall, 3 m high and 40 m long, on clay, with drainage.',
        subcategoryId: subcategory,
        budgetType: 'fixed',
        budgetMinor: 60_000,
        currency: 'EUR',
        remote: true,
        installments,
        publish: true,
      }
      projects.push((await call('/api/v1/projects', { method: 'POST', token: token(a), body })).id)
    }),
  )
  found = await call('/api/v1/projects?search=wall&page=1')
  await measure('visitor: a project', n, times(`/projects/details/${found.data[0].id}`))
  await measure('visitor: Find Freelancers page', n, times('/freelancers'))
  await measure('client: My Projects page', n, () =>
    each(clients, (a) => call('/projects/client', { cookie: token(a) })),
  )
  await measure('freelancer: Find Project page', n, () =>
    each(freelancers, (a) => call('/projects/getprojects', { cookie: token(a) })),
  )
  const proposals: number[] = []
  await measure('freelancer: propose', n, () =>
    each(freelancers, async (a, i) => {
      const body = {
        coverLetter: 'I have designed a dozen retaining walls on clay; drawings within three weeks.',
        bidMinor: 60_000,
        durationDays: 21,
        installments,
      }
      const r = await call(`/api/v1/projects/${projects[i]}/proposal`, {
        method: 'POST',
        token: token(a),
        body,
      })
      proposals.push(r.id)
    }),
  )
  await measure('freelancer: My Proposals page', n, () =>
    each(freelancers, (a) => call('/projects/freelancer/porposals', { cookie: token(a) })),
  )
  const firstInstallments: number[] = []
  await measure('client: accept a proposal', n, () =>
    each(clients, async (a, i) => {
      const path = `/api/v1/projects/proposals/${proposals[i]}/accept/${projects[i]}`
      firstInstallments.push((await call(path, { method: 'POST', token: token(a) })).installments[0].id)
    }),
  )
  const rooms: number[] = []
  await measure('client: open the room', n, () =>
    each(clients, async (a, i) => {
      const freelancer = tokens.get(freelancers[i].email)!.id
      const path = `/api/v1/projects/Createroom/${projects[i]}/${freelancer}`
      rooms.push((await call(path, { method: 'POST', token: token(a) })).roomId)
    }),
  )
  const payments: string[] = []
  await measure('client: pay an installment', n, () =>
    each(clients, async (a, i) => {
      const body = { projectId: projects[i], installmentIds: [firstInstallments[i]] }
      const path = '/api/v1/Payment/PayProjectInstallments'
      payments.push((await call(path, { method: 'POST', token: token(a), body })).token)
    }),
  )
  const { testCards } = await import(path.join(root, 'server/modules/payments/gateways/test-cards.ts'))
  await measure('client: sandbox checkout', n, () =>
    each(payments, async (payment) => {
      const body = { cardNumber: testCards.succeeds, expiry: '12/40', cvc: '123', name: 'Load Client' }
      await call(`/api/v1/Payment/sandbox/${payment}/pay`, { method: 'POST', body })
    }),
  )
  const message = (people: Account[], side: string, text: string) => () =>
    each(people, async (a, i) => {
      const body = { clientMessageId: `cost-${rooms[i]}-${side}`, text: `${text} (${i})` }
      await call(`/api/v1/chat/${rooms[i]}`, { method: 'POST', token: token(a), body })
    })
  await measure('client: send a message', n, message(clients, 'c', 'Any news on the drawings?'))
  await measure('freelancer: send a message', n, message(freelancers, 'f', 'Drawings attached tomorrow.'))
}

/** One build: a fresh server, a warm-up walk, then the measured walk. */
async function costOf(checkout: string, env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-step-cost-'))
  const warmup = Math.min(10, count)
  const people = await prepare(checkout, dataDir, warmup + count)
  const server = await startWorkneer(
    { DATA_DIR: dataDir, SEED_DEMO: 'false', TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    'inherit',
    { checkout },
  )
  const pid = server.child.pid!
  const costs = new Map<string, Cost>()
  try {
    const call = client(server.url)
    await walk(call, people, warmup, (_name, _requests, run) => run())
    await settle(pid)
    // What the server uses idle (its timers and sweeps), per ms, taken off each step.
    const idleStart = threadCpu(pid)
    const idleAt = performance.now()
    await new Promise((r) => setTimeout(r, 3_000))
    const idle = cpuSince(idleStart, threadCpu(pid))
    const idleMs = performance.now() - idleAt
    const rest = {
      clients: people.clients.slice(warmup),
      freelancers: people.freelancers.slice(warmup),
      subcategory: people.subcategory,
    }
    await walk(call, rest, count, async (name, requests, run) => {
      const start = threadCpu(pid)
      const t0 = performance.now()
      const at = process.hrtime.bigint() / 1000n
      await run()
      await settle(pid)
      marks.push({
        build: checkout,
        step: name,
        from: Number(at),
        to: Number(process.hrtime.bigint() / 1000n),
      })
      const wallMs = performance.now() - t0
      const used = cpuSince(start, threadCpu(pid))
      const less = (kind: keyof ThreadCpu) => Math.max(0, used[kind] - (idle[kind] * wallMs) / idleMs)
      costs.set(name, {
        requests,
        wallMs,
        main: less('main'),
        threadpool: less('threadpool'),
        v8: less('v8'),
        other: less('other'),
      })
    })
  } finally {
    server.child.kill()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  return costs
}

// --build name=checkout[,ENV=value…]: a build to measure, with variables for its server.
const builds = options.build!.map((spec) => {
  const [name, rest] =
    spec.split('=', 2).length === 2
      ? [spec.slice(0, spec.indexOf('=')), spec.slice(spec.indexOf('=') + 1)]
      : ['this', spec]
  const [dir, ...vars] = rest.split(',')
  return { name, dir: path.resolve(dir), env: Object.fromEntries(vars.map((v) => v.split('=', 2))) }
})
const marks: Array<{ build: string; step: string; from: number; to: number }> = []
const results = new Map<string, Map<string, Cost[]>>()
for (let round = 0; round < Number(options.rounds); round++)
  for (const build of builds) {
    console.log(
      `round ${round + 1}: ${build.name} (${build.dir}); load average ${os.loadavg()[0].toFixed(1)}`,
    )
    for (const [step, cost] of await costOf(build.dir, build.env)) {
      const byStep = results.get(step) ?? new Map<string, Cost[]>()
      byStep.set(build.name, [...(byStep.get(build.name) ?? []), cost])
      results.set(step, byStep)
    }
  }

// Per step and build: CPU ms per request (all threads; main thread; threadpool), the median of the rounds.
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const rows = [...results].map(([step, byBuild]) => {
  const row: Record<string, string | number> = { step }
  for (const { name } of builds) {
    const costs = byBuild.get(name) ?? []
    const per = (f: (c: Cost) => number) => median(costs.map((c) => f(c) / c.requests)).toFixed(2)
    row[`${name} CPU`] = per(cpuTotal)
    row[`${name} main`] = per((c) => c.main)
    row[`${name} pool`] = per((c) => c.threadpool)
  }
  return row
})
console.table(rows)
if (options.marks) fs.writeFileSync(options.marks, JSON.stringify(marks, null, 1))
console.log(`CPU ms per request; load average now ${os.loadavg()[0].toFixed(1)}`)
