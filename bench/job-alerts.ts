import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import type { Db } from '#server/db/database.ts'
import { seedReference } from '#server/db/seed.ts'
import { searchKeys } from '#server/modules/alerts/matching.ts'
import { matchingSearches } from '#server/modules/alerts/queue.ts'
import { projectTarget } from '#server/modules/alerts/targets.ts'
import type { SavedFilters } from '#server/modules/alerts/schemas.ts'
import { moduleTestApi } from '../tests/integration/module-api.ts'
import { settle } from '../tests/support/modules/alerts.ts'
import { benchUser, onBothDatabases, pct, whileProbed } from './lib.ts'

// Issue 41: job alerts on SQLite and PostgreSQL (decisions 328, 343). 50,000 freelancers keep
// 100,000 saved searches of every shape (a subcategory, a category, skills, words, a budget type).
// (1) A published project is matched against them and its alerts queued: the outbox handler's
// work, timed per project (< 200 ms); what it leaves in the outbox (notices, hub messages) is then
// delivered while a request goes every 20 ms. (2) Every search's daily digest is due, with the
// matches those projects left: the digest job writes its mails into the outbox while a request
// goes every 20 ms; the event loop's longest block and the requests' slowest answer (< 50 ms).
const FREELANCERS = Number(process.env.BENCH_ALERT_FREELANCERS ?? 50_000)
const PER_FREELANCER = 2
const PROJECTS = Number(process.env.BENCH_ALERT_PROJECTS ?? 20)
const CHUNK = 500

type Catalogue = { subs: Array<{ id: number; category_id: number; skills: number[] }>; words: string[] }

async function catalogue(database: Db): Promise<Catalogue> {
  const subs = await database.db.selectFrom('subcategory').select(['id', 'category_id']).execute()
  const links = await database.db
    .selectFrom('subcategory_skill')
    .select(['subcategory_id', 'skill_id'])
    .execute()
  return {
    subs: subs.map((s) => ({
      ...s,
      skills: links.filter((l) => l.subcategory_id === s.id).map((l) => l.skill_id),
    })),
    words: [
      'steel',
      'concrete',
      'bridge',
      'drainage',
      'timber',
      'foundation',
      'survey',
      'retrofit',
      'facade',
      'hvac',
    ],
  }
}

/**
 * A saved search of some shape, picked by `n` so every run is the same: most name a subcategory
 * (a third with a word), some a whole category, some skills, some two words, a few only a budget
 * type, as people narrow a search to their field.
 */
function filtersOf(n: number, c: Catalogue): SavedFilters {
  const sub = c.subs[(n * 7) % c.subs.length]
  const word = (k: number) => c.words[(n * 13 + k * 29) % c.words.length]
  const bucket = n % 100
  if (bucket < 45) return { subcategoryId: sub.id, skills: [], search: n % 3 ? undefined : word(0) }
  if (bucket < 55) return { categoryId: sub.category_id, skills: [], budgetType: n % 2 ? 'fixed' : undefined }
  if (bucket < 80) {
    const skills = sub.skills.slice(n % 3, (n % 3) + 2)
    return { skills: skills.length ? skills : [sub.skills[0] ?? 1] }
  }
  if (bucket < 99) return { search: `${word(0)} ${word(1)}`, skills: [] }
  return { budgetType: 'hourly', skills: [], remote: true }
}

async function fill(database: Db, c: Catalogue) {
  const db = database.db
  const now = new Date().toISOString()
  const due = new Date(Date.now() + 86_400_000).toISOString()
  for (let from = 0; from < FREELANCERS; from += CHUNK) {
    const users = await db
      .insertInto('app_user')
      .values(
        Array.from({ length: Math.min(CHUNK, FREELANCERS - from) }, (_, k) =>
          benchUser(`alert-${from + k}@bench.test`, 'freelancer', now),
        ),
      )
      .returning('id')
      .execute()
    const searches = users.flatMap((u, k) =>
      Array.from({ length: PER_FREELANCER }, (_, j) => ({
        owner: u.id,
        filters: filtersOf((from + k) * PER_FREELANCER + j, c),
      })),
    )
    const made = await db
      .insertInto('saved_search')
      .values(
        searches.map((s, i) => ({
          owner_id: s.owner,
          kind: 'project',
          name: `Search ${from + i}`,
          filters: JSON.stringify(s.filters),
          frequency: 'daily',
          digest_due_at: due,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute()
    const keys = made.flatMap((m, i) =>
      searchKeys(searches[i].filters).map((key) => ({ kind: 'project', key, saved_search_id: m.id })),
    )
    for (let k = 0; k < keys.length; k += CHUNK)
      await db
        .insertInto('saved_search_key')
        .values(keys.slice(k, k + CHUNK))
        .execute()
  }
  if (database.dialect === 'postgres') await sql`ANALYZE`.execute(db)
}

async function matching(database: Db, api: ReturnType<typeof moduleTestApi>, c: Catalogue) {
  const client = await api.user('client')
  const ms: number[] = []
  const cpuMs: number[] = []
  const matchCpuMs: number[] = []
  const fanOutCpuMs: number[] = []
  let fanOutBlock = 0
  let fanOutBlockCpu = 0
  const viewer = await api.user('freelancer')
  let matched = 0
  let notified = 0
  for (let n = 0; n < PROJECTS; n++) {
    const sub = c.subs[(n * 7) % c.subs.length]
    const created = await api.call('POST', 'projects', {
      token: client.token,
      body: {
        title: `${c.words[n % c.words.length]} design for a bridge abutment ${n}`,
        description:
          'Calculations and drawings for the abutment of a small road bridge, with its drainage and the survey of the site.',
        subcategoryId: sub.id,
        skillIds: sub.skills.slice(0, 3),
        budgetType: n % 2 ? 'fixed' : 'hourly',
        budgetMinor: 250_000,
        currency: 'EUR',
        remote: true,
        // An hourly project names its rate's range and its hours a week (decision 323).
        ...(n % 2
          ? { installments: [{ title: 'All', amountMinor: 250_000 }] }
          : { budgetMinMinor: 200_000, hoursPerWeek: 20 }),
        publish: true,
      },
    })
    if (created.status !== 200) throw new Error(`publish: ${created.text}`)
    // The matching alone (read and check, no writes), to split the handler's time into its phases.
    const t0 = process.cpuUsage()
    const found = (await projectTarget(database.db, created.json.id as number))!
    await matchingSearches(database.db, 'project', found.target, found.ownerId)
    const t1 = process.cpuUsage(t0)
    matchCpuMs.push((t1.user + t1.system) / 1000)
    // The handler is timed here, not delivered from the outbox too.
    await database.db.deleteFrom('outbox').where('topic', '=', 'projects.published').execute()
    const started = performance.now()
    const cpu = process.cpuUsage()
    const r = await api.api.services.alerts.projectPublished(created.json.id as number)
    ms.push(performance.now() - started)
    const used = process.cpuUsage(cpu)
    cpuMs.push((used.user + used.system) / 1000)
    // What it left in the outbox (notices, their hub messages) is delivered while a request goes every 20 ms.
    const after = await whileProbed(
      () => api.call('GET', 'notifications/count', { token: viewer.token }),
      () => settle(api),
    )
    fanOutCpuMs.push(after.cpuSeconds * 1000)
    fanOutBlock = Math.max(fanOutBlock, after.blockMs)
    fanOutBlockCpu = Math.max(fanOutBlockCpu, after.blockCpuMs)
    matched += r.matched
    notified += r.notified
  }
  return {
    ms,
    cpuMs,
    matchCpuMs,
    fanOutCpuMs,
    fanOutBlock,
    fanOutBlockCpu,
    matched: Math.round(matched / PROJECTS),
    notified: Math.round(notified / PROJECTS),
  }
}

/**
 * Every search due at once, with the matches the published projects left waiting (about half of the
 * searches have some); the digest runs while a request goes every 20 ms.
 */
async function digests(database: Db, api: ReturnType<typeof moduleTestApi>) {
  const db = database.db
  await db
    .updateTable('saved_search')
    .set({ digest_due_at: new Date(Date.now() - 60_000).toISOString() })
    .execute()
  await db.deleteFrom('outbox').execute()
  const viewer = await api.user('freelancer')
  let mails = 0
  const probed = await whileProbed(
    () => api.call('GET', 'notifications/count', { token: viewer.token }),
    async () => void (mails = await api.api.services.alerts.sendDigests()),
  )
  return { mails, ...probed }
}

async function run(database: Db, label: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-alerts-bench-'))
  try {
    await seedReference(database.db)
    const c = await catalogue(database)
    const filling = performance.now()
    await fill(database, c)
    const filled = ((performance.now() - filling) / 1000).toFixed(0)
    const api = moduleTestApi(database, {
      name: 'alerts-bench',
      addressBlock: 43,
      dataDir,
      env: { NODE_ENV: 'production' },
    })
    const m = await matching(database, api, c)
    const d = await digests(database, api)
    await api.close()
    return [
      {
        database: label,
        'saved searches': FREELANCERS * PER_FREELANCER,
        'fill s': filled,
        'match+queue p50 ms': pct(m.ms, 0.5).toFixed(1),
        'match+queue max ms': Math.max(...m.ms).toFixed(1),
        'its CPU p50 ms': pct(m.cpuMs, 0.5).toFixed(1),
        'matching alone CPU p50 ms': pct(m.matchCpuMs, 0.5).toFixed(1),
        'fan-out CPU p50 ms': pct(m.fanOutCpuMs, 0.5).toFixed(1),
        'fan-out longest block ms': m.fanOutBlock.toFixed(1),
        'fan-out most CPU in a block ms': m.fanOutBlockCpu.toFixed(1),
        'matched/project': m.matched,
        'notified/project': m.notified,
        'digest mails': d.mails,
        'digest s': d.seconds.toFixed(1),
        'digest CPU s': d.cpuSeconds.toFixed(1),
        'longest block ms': d.blockMs.toFixed(1),
        'most CPU in a block ms': d.blockCpuMs.toFixed(1),
        'request p99 ms': d.requestP99.toFixed(1),
        'request max ms': d.requestMax.toFixed(1),
      },
    ]
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function runJobAlertsBench() {
  const results = await onBothDatabases('wk_bench_alerts', run)
  console.log(
    `\nJob alerts (issue 41): ${FREELANCERS * PER_FREELANCER} saved searches; ${PROJECTS} projects matched; every freelancer's digest:`,
  )
  console.table(results)
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) await runJobAlertsBench()
