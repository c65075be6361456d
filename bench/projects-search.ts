import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { sql } from 'kysely'
import { openDatabase, migrateToLatest, type Db } from '#server/db/database.ts'
import { seedReference } from '#server/db/seed.ts'
import { createApi } from '#server/api/index.ts'
import { loadConfig } from '#server/config.ts'
import { createLogger } from '#server/log.ts'
import { hashPassword } from '#server/modules/identity/passwords.ts'
import { createProjectSearchIndex } from '#server/modules/projects/search-index.ts'
import {
  ensureBuild,
  measure,
  printTable,
  startTrivialBaseline,
  startWorkneer,
  type Measured,
} from './lib.ts'

// Issue 6: Find Project at scale. 100,000 projects and 300,000 proposals on SQLite and on
// PostgreSQL; the filtered full-text project list (API, in process: what a loader pays) and project
// details with 50 proposals, measured one request at a time (latency, not throughput).
// BENCH_PROJECTS / BENCH_PROPOSALS shrink it for a quick look.
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 100_000)
const PROPOSALS = Number(process.env.BENCH_PROPOSALS ?? 300_000)
const DETAILED = 100 // projects of the signed-in client, 50 proposals each
const FREELANCERS = 3000
const CLIENTS = 1000
const postgresAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

const words = (
  'structural steel concrete timber beam column foundation slab retaining wall bridge footbridge roof truss facade ' +
  'drainage stormwater sewer water supply pipeline pump station road pavement grading earthworks survey topographic ' +
  'geotechnical borehole soil piling permit planning application zoning feasibility study masterplan urban design ' +
  'architecture residential commercial industrial warehouse hospital school office hotel apartment villa extension loft ' +
  'renovation refurbishment seismic retrofit fire safety hvac mechanical electrical plumbing lighting solar photovoltaic ' +
  'energy audit sustainability leed breeam bim revit autocad civil3d tekla etabs sap2000 calculations drawings details ' +
  'specification tender cost estimate quantity takeoff bill schedule primavera programme claims contract management ' +
  'supervision inspection site visit quality control commissioning handover asbuilt modelling rendering visualisation'
).split(' ')
const countries = ['ES', 'DE', 'IT', 'GB', 'US', 'FR', 'RU', 'CO', 'MX', 'PT']
const levels = ['entry', 'intermediate', 'expert']

// mulberry32: a small seeded generator, so every run writes the same data.
let seed = 42
const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]
const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
// Text is a third trade words (what people search for) and two thirds a long tail of other words
// (names, places, products), so a trade word is in roughly one project in ten, as in real listings.
const syllables = 'ka lo mi ne ra to su vi de pa ge lu mo ri sa te bo na fe ci'.split(' ')
const tail = Array.from(
  { length: 2000 },
  () => pick(syllables) + pick(syllables) + pick(syllables) + pick(syllables),
)
const word = () => words[Math.floor(rnd() ** 1.5 * words.length)]
const textWord = () => (rnd() < 0.33 ? word() : pick(tail))
const phrase = (n: number) => Array.from({ length: n }, textWord).join(' ')

async function fill(database: Db) {
  const { db } = database
  const now = Date.now()
  const iso = (ms: number) => new Date(ms).toISOString()
  const subs = await db.selectFrom('subcategory').select(['id', 'category_id']).execute()
  const subSkills = Map.groupBy(
    await db.selectFrom('subcategory_skill').select(['subcategory_id', 'skill_id']).execute(),
    (s) => s.subcategory_id,
  )
  const password = await hashPassword('bench password 1234')
  const user = (n: number, kind: 'client' | 'freelancer') => ({
    email: `${kind}${n}@bench.test`,
    email_verified: 1,
    password_hash: n === 0 ? password : 'x',
    first_name: kind,
    last_name: String(n),
    company_name: null,
    phone_number: null,
    language: 'en',
    account_type: kind,
    status: 'Active' as const,
    image_file_id: null,
    provider: 'local',
    terms_accepted_at: iso(now),
    created_at: iso(now),
    updated_at: iso(now),
  })
  const insertMany = async <T>(rows: T[], size: number, write: (batch: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size))
  }
  const clientIds: number[] = []
  const freelancerIds: number[] = []
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < CLIENTS; i += 200)
      clientIds.push(
        ...(
          await trx
            .insertInto('app_user')
            .values(Array.from({ length: 200 }, (_, k) => user(i + k, 'client')))
            .returning('id')
            .execute()
        ).map((r) => r.id),
      )
    for (let i = 0; i < FREELANCERS; i += 200)
      freelancerIds.push(
        ...(
          await trx
            .insertInto('app_user')
            .values(Array.from({ length: 200 }, (_, k) => user(i + k, 'freelancer')))
            .returning('id')
            .execute()
        ).map((r) => r.id),
      )
    await trx
      .insertInto('user_role')
      .values(clientIds.map((id) => ({ user_id: id, role: 2 })))
      .execute()
    await insertMany(freelancerIds, 1000, (b) =>
      trx
        .insertInto('user_role')
        .values(b.map((id) => ({ user_id: id, role: 4 })))
        .execute(),
    )
  })
  const started = performance.now()
  for (let base = 0; base < PROJECTS; base += 5000) {
    await db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: Math.min(5000, PROJECTS - base) }, (_, k) => {
        const n = base + k
        const sub = pick(subs)
        const published = now - Math.floor(rnd() * 120 * 86_400_000)
        const fixed = rnd() < 0.7
        return {
          client_id: n < DETAILED ? clientIds[0] : pick(clientIds),
          status: rnd() < 0.85 ? 'open' : pick(['in_progress', 'completed', 'cancelled', 'draft']),
          title: `${phrase(3)} ${phrase(3)}`.slice(0, 140),
          description: phrase(40 + Math.floor(rnd() * 60)),
          category_id: sub.category_id,
          subcategory_id: sub.id,
          budget_type: fixed ? 'fixed' : 'hourly',
          budget_minor: fixed ? 10_000 * (1 + Math.floor(rnd() * 500)) : 100 * (20 + Math.floor(rnd() * 150)),
          currency: rnd() < 0.7 ? 'EUR' : 'USD',
          duration_days: 7 + Math.floor(rnd() * 120),
          deadline: null,
          experience_level: pick(levels),
          remote: rnd() < 0.6 ? 1 : 0,
          location: null,
          country: pick(countries),
          installment_plan: '[]',
          proposal_count: 0,
          created_at: iso(published),
          updated_at: iso(published),
          published_at: iso(published),
        }
      })
      const ids: number[] = []
      await insertMany(rows, 500, async (b) =>
        ids.push(...(await trx.insertInto('project').values(b).returning('id').execute()).map((r) => r.id)),
      )
      const skills = ids.flatMap((id, k) => {
        const options = subSkills.get(rows[k].subcategory_id) ?? []
        return [...new Set([pick(options), pick(options), pick(options)].filter(Boolean))].map(
          (skill_id) => ({ project_id: id, skill_id: skill_id!.skill_id }),
        )
      })
      await insertMany(skills, 1000, (b) => trx.insertInto('project_skill').values(b).execute())
    })
  }
  // Proposals: 50 on each of the signed-in client's projects, the rest spread at random.
  const projectIds = (await db.selectFrom('project').select('id').orderBy('id').execute()).map((r) => r.id)
  const proposals: { project_id: number; freelancer_id: number }[] = []
  for (let p = 0; p < DETAILED; p++)
    for (let f = 0; f < 50; f++)
      proposals.push({ project_id: projectIds[p], freelancer_id: freelancerIds[f * 7 + p] })
  const seen = new Set(proposals.map((x) => `${x.project_id}:${x.freelancer_id}`))
  while (proposals.length < PROPOSALS) {
    const x = {
      project_id: projectIds[DETAILED + Math.floor(rnd() * (projectIds.length - DETAILED))],
      freelancer_id: pick(freelancerIds),
    }
    const key = `${x.project_id}:${x.freelancer_id}`
    if (seen.has(key)) continue
    seen.add(key)
    proposals.push(x)
  }
  for (let i = 0; i < proposals.length; i += 10_000) {
    await db.transaction().execute((trx) =>
      insertMany(proposals.slice(i, i + 10_000), 500, (b) =>
        trx
          .insertInto('proposal')
          .values(
            b.map((x) => ({
              ...x,
              status: 'pending',
              cover_letter: phrase(60),
              bid_minor: 10_000 * (1 + Math.floor(rnd() * 300)),
              currency: 'EUR',
              duration_days: 30,
              installment_plan: '[]',
              revision: 1,
              reject_reason: null,
              created_at: iso(now),
              updated_at: iso(now),
              decided_at: null,
            })),
          )
          .execute(),
      ),
    )
  }
  await sql`update project set proposal_count = (select count(*) from proposal where proposal.project_id = project.id)`.execute(
    db,
  )
  // The full-text index of open projects (words and facets), written in batches as the app writes it.
  const indexed = performance.now()
  await createProjectSearchIndex(database.dialect).rebuild(db)
  // Statistics for the planner; on PostgreSQL also the visibility map, which index-only scans need
  // (autovacuum does this in production).
  await (database.dialect === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(db)
  console.log(
    `[projects bench] ${database.dialect}: search index written in ${((performance.now() - indexed) / 1000).toFixed(0)} s`,
  )
  return {
    clientEmail: 'client0@bench.test',
    detailed: projectIds.slice(0, DETAILED),
    fillSeconds: (performance.now() - started) / 1000,
  }
}

function searchUrls(n: number, categories: number[]) {
  const urls: string[] = []
  for (let i = 0; i < n; i++) {
    const q = new URLSearchParams()
    q.set('search', rnd() < 0.5 ? word() : `${word()} ${word()}`)
    if (rnd() < 0.5) q.set('categoryId', String(pick(categories)))
    if (rnd() < 0.3) q.set('budgetType', pick(['fixed', 'hourly']))
    if (rnd() < 0.3) q.set('budgetMin', String(100_000 * Math.floor(rnd() * 10)))
    if (rnd() < 0.3) q.set('experienceLevel', pick(levels))
    if (rnd() < 0.2) q.set('country', pick(countries))
    if (rnd() < 0.3) q.set('postedWithin', String(pick([1, 3, 7, 30])))
    q.set('sort', pick(['relevance', 'newest', 'budget_high']))
    q.set('page', String(1 + Math.floor(rnd() * 3)))
    urls.push(`projects?${q}`)
  }
  return urls
}

const percentile = (values: number[], p: number) => {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}

export interface ProjectsBenchRow {
  dialect: string
  scenario: string
  requests: number
  p50: number
  p95: number
  p99: number
}

async function timed(api: ReturnType<typeof createApi>, urls: string[], token?: string) {
  const times: number[] = []
  for (const url of urls) {
    const t0 = performance.now()
    const response = await api.handler(
      new Request(`http://bench/api/v1/${url}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      }),
    )
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`${url}: ${response.status}`)
    times.push(performance.now() - t0)
  }
  return times
}

// Issue 6: the server-rendered /projects page (Find Project) against the trivial page, measured
// one after the other in the same run, with a Workneer server on the seeded SQLite file.
async function measurePages(file: string, categories: number[]): Promise<Measured[]> {
  ensureBuild()
  const seconds = Number(process.env.BENCH_SECONDS ?? 10)
  const baseline = await startTrivialBaseline()
  const workneer = await startWorkneer({ DATABASE_URL: `file:${file}`, SEED_DEMO: 'false' })
  try {
    return [
      await measure('(a) trivial React Router page, @react-router/serve', baseline.url, { seconds }),
      await measure('(p1) /projects, newest first, Workneer', `${workneer.url}/projects`, { seconds }),
      await measure(
        '(p2) /projects with words, a category and a sort, Workneer',
        `${workneer.url}/projects?search=steel&categoryId=${categories[0]}&sort=relevance`,
        { seconds },
      ),
      // The same pages rendered for every request: any cookie but the language keeps a request
      // out of the visitor page cache (decision 033), as for a signed-in freelancer.
      await measure('(p1r) /projects, newest first, rendered every time', `${workneer.url}/projects`, {
        seconds,
        headers: { cookie: 'bench=rendered' },
      }),
      await measure(
        '(p2r) /projects with words, a category and a sort, rendered every time',
        `${workneer.url}/projects?search=steel&categoryId=${categories[0]}&sort=relevance`,
        { seconds, headers: { cookie: 'bench=rendered' } },
      ),
    ]
  } finally {
    baseline.child.kill()
    workneer.child.kill()
  }
}

export async function runProjectsBench({
  dialects = ['sqlite', 'postgres'],
}: { dialects?: ReadonlyArray<'sqlite' | 'postgres'> } = {}): Promise<ProjectsBenchRow[]> {
  const rows: ProjectsBenchRow[] = []
  const pages: Measured[] = []
  for (const dialect of dialects) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-bench-projects-'))
    let dropPg: (() => Promise<void>) | null = null
    let target
    // BENCH_SQLITE_FILE and BENCH_POSTGRES_DB keep the data between runs (written once, reused after).
    const keep = dialect === 'sqlite' ? process.env.BENCH_SQLITE_FILE : undefined
    const keepPg = dialect === 'postgres' ? process.env.BENCH_POSTGRES_DB : undefined
    let reuse = !!keep && fs.existsSync(keep)
    if (dialect === 'sqlite')
      target = { kind: 'sqlite' as const, file: keep ?? path.join(dir, 'bench.sqlite') }
    else {
      if (keepPg && !/^[a-z_][a-z0-9_]*$/.test(keepPg))
        throw new Error('BENCH_POSTGRES_DB must be a plain lower-case name')
      const name = keepPg ?? `wk_bench_${randomBytes(4).toString('hex')}`
      const admin = new pg.Client({ connectionString: postgresAdminUrl })
      await admin.connect()
      reuse =
        !!keepPg && (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1
      if (!reuse) await admin.query(`create database ${name}`)
      await admin.end()
      const url = new URL(postgresAdminUrl)
      url.pathname = `/${name}`
      target = { kind: 'postgres' as const, url: url.href }
      if (!keepPg)
        dropPg = async () => {
          const c = new pg.Client({ connectionString: postgresAdminUrl })
          await c.connect()
          await c.query(`drop database if exists ${name} with (force)`)
          await c.end()
        }
    }
    const database = await openDatabase(target)
    try {
      await migrateToLatest(database)
      // Kept data: a migration may just have written the search index again; clean up and count
      // as autovacuum would before the searches are timed.
      if (reuse && dialect === 'postgres') await sql`vacuum analyze`.execute(database.db)
      await seedReference(database.db)
      const filled = reuse
        ? {
            clientEmail: 'client0@bench.test',
            detailed: (
              await database.db.selectFrom('project').select('id').orderBy('id').limit(DETAILED).execute()
            ).map((r) => r.id),
            fillSeconds: 0,
          }
        : await fill(database)
      console.log(
        `[projects bench] ${dialect}: ${PROJECTS} projects and ${PROPOSALS} proposals written in ${filled.fillSeconds.toFixed(0)} s`,
      )
      const config = loadConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        DATA_DIR: dir,
        AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-1234',
      })
      const api = createApi({ database, log: createLogger('silent'), config })
      const login = await api.handler(
        new Request('http://bench/api/v1/identity/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: filled.clientEmail, password: 'bench password 1234' }),
        }),
      )
      const { token } = (await login.json()) as { token: string }
      const categories = (await database.db.selectFrom('category').select('id').execute()).map((c) => c.id)
      await timed(api, searchUrls(100, categories)) // warm up
      const search = await timed(api, searchUrls(1000, categories))
      const browse = await timed(
        api,
        searchUrls(300, categories).map((u) => u.replace(/search=[^&]*&?/, '')),
      )
      const details = await timed(
        api,
        Array.from(
          { length: 300 },
          (_, i) => `projects/${filled.detailed[i % filled.detailed.length]}/details-for-client`,
        ),
        token,
      )
      // The freelancer's view of the same projects (the open ones: others are not theirs to see).
      const freelancer = (await (
        await api.handler(
          new Request('http://bench/api/v1/identity/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'freelancer0@bench.test', password: 'bench password 1234' }),
          }),
        )
      ).json()) as { token: string }
      const open = (
        await database.db
          .selectFrom('project')
          .select('id')
          .where('id', 'in', filled.detailed)
          .where('status', '=', 'open')
          .execute()
      ).map((r) => r.id)
      const freelancerDetails = await timed(
        api,
        Array.from({ length: 300 }, (_, i) => `projects/${open[i % open.length]}/details-for-freelancer`),
        freelancer.token,
      )
      for (const [scenario, times] of [
        ['project list: full text + filters + sort + page', search],
        ['project list: filters only', browse],
        ['project details for the client, 50 proposals', details],
        ['project details for a freelancer, 50 proposals', freelancerDetails],
      ] as const) {
        rows.push({
          dialect,
          scenario,
          requests: times.length,
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          p99: percentile(times, 99),
        })
      }
      await api.jobs.close()
      if (dialect === 'sqlite' && process.env.BENCH_PROJECTS_PAGE !== '0')
        pages.push(...(await measurePages(target.kind === 'sqlite' ? target.file : '', categories)))
    } finally {
      await database.close()
      await dropPg?.()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
  console.log('\nFind Project at scale (ms, one request at a time, in process)')
  console.table(
    rows.map((r) => ({ ...r, p50: r.p50.toFixed(1), p95: r.p95.toFixed(1), p99: r.p99.toFixed(1) })),
  )
  if (pages.length) {
    console.log('\nThe projects page over the SQLite data (autocannon, server-rendered)')
    printTable(pages)
    const [trivial, ...rest] = pages
    for (const p of rest)
      console.log(
        `ratio ${p.name} / trivial page on @react-router/serve: ${(p.rps / trivial.rps).toFixed(2)} (target ≥ 0.6)`,
      )
  }
  return rows
}

if (import.meta.main)
  await runProjectsBench({
    dialects: process.env.BENCH_DIALECTS?.split(',') as Array<'sqlite' | 'postgres'> | undefined,
  })
