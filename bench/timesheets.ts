import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import type { Db } from '#server/db/database.ts'
import { seedReference } from '#server/db/seed.ts'
import { Role } from '#server/modules/identity/permissions.ts'
import { SANDBOX } from '#server/modules/payments/gateways/sandbox.ts'
import { addDays } from '#server/modules/projects/timesheets/rules.ts'
import { moduleTestApi } from '../tests/integration/module-api.ts'
import { hourlyContractFor, mondayWeeksAgo } from '../tests/support/modules/timesheets.ts'
import { benchUser, onBothDatabases, probedColumns, whileProbed } from './lib.ts'

// Issue 40: a year of weekly timesheets for 1,000 hourly contracts charged in one job run without
// blocking a request for more than 50 ms, on SQLite and PostgreSQL (decisions 324, 334, 341). Each
// contract's client keeps a saved sandbox card; each contract has 52 weeks submitted and left
// unanswered past TIMESHEET_REVIEW_DAYS. The rows are written in bulk from one contract made
// through the API. The server's hourly timesheet job then runs once — every week approved by the
// system, made an installment, charged to the card and released by the gateway's event — while a
// request is made every 20 ms; the event loop's longest block and those requests' p99 and slowest
// answer are measured (< 50 ms).
const CONTRACTS = Number(process.env.BENCH_TIMESHEET_CONTRACTS ?? 1_000)
const WEEKS = Number(process.env.BENCH_TIMESHEET_WEEKS ?? 52)
// Contracts charged at once; unset, the job's own (timesheets/sweep.ts sweepLanes: 4 on PostgreSQL, 1 on SQLite).
const LANES = process.env.BENCH_TIMESHEET_LANES ? Number(process.env.BENCH_TIMESHEET_LANES) : undefined
const CHUNK = 500

type Api = ReturnType<typeof moduleTestApi>

/** `n` people of a kind, with their role, in bulk: their ids. */
async function people(database: Db, kind: 'client' | 'freelancer', n: number) {
  const db = database.db
  const now = new Date().toISOString()
  const ids: number[] = []
  for (let from = 0; from < n; from += CHUNK) {
    const made = await db
      .insertInto('app_user')
      .values(
        Array.from({ length: Math.min(CHUNK, n - from) }, (_, k) =>
          benchUser(
            `hourly-${kind}-${from + k}@bench.test`,
            kind,
            now,
            ['en', 'es', 'de', 'it', 'ru'][(from + k) % 5],
          ),
        ),
      )
      .returning('id')
      .execute()
    const role = kind === 'client' ? Role.Client : Role.Freelancer
    await db
      .insertInto('user_role')
      .values(made.map((u) => ({ user_id: u.id, role })))
      .execute()
    ids.push(...made.map((u) => u.id))
  }
  return ids
}

/** Copies of the template's project, proposal and contract, one per client and freelancer: the contracts' ids. */
async function contracts(database: Db, api: Api, clients: number[], freelancers: number[]) {
  const db = database.db
  const [client, freelancer] = [await api.user('client'), await api.user('freelancer')]
  const made = await hourlyContractFor(api.call, database, client, freelancer, { limitHours: 40 })
  const { id: _p, ...project } = await db
    .selectFrom('project')
    .selectAll()
    .where('id', '=', made.projectId)
    .executeTakeFirstOrThrow()
  const { id: _c, ...contract } = await db
    .selectFrom('contract')
    .selectAll()
    .where('id', '=', made.contractId)
    .executeTakeFirstOrThrow()
  const { id: _q, ...proposal } = await db
    .selectFrom('proposal')
    .selectAll()
    .where('id', '=', contract.proposal_id)
    .executeTakeFirstOrThrow()
  // Started before the year of weeks.
  const started = new Date(`${mondayWeeksAgo(WEEKS + 2)}T08:00:00Z`).toISOString()
  const ids: number[] = []
  for (let from = 0; from < clients.length; from += CHUNK) {
    const part = clients.slice(from, from + CHUNK)
    const projects = await db
      .insertInto('project')
      .values(part.map((c, k) => ({ ...project, client_id: c, title: `${project.title} ${from + k}` })))
      .returning('id')
      .execute()
    const proposals = await db
      .insertInto('proposal')
      .values(
        projects.map((p, k) => ({ ...proposal, project_id: p.id, freelancer_id: freelancers[from + k] })),
      )
      .returning('id')
      .execute()
    const rows = await db
      .insertInto('contract')
      .values(
        projects.map((p, k) => ({
          ...contract,
          project_id: p.id,
          proposal_id: proposals[k].id,
          client_id: part[k],
          freelancer_id: freelancers[from + k],
          created_at: started,
        })),
      )
      .returning('id')
      .execute()
    ids.push(...rows.map((r) => r.id))
  }
  return { ids, projectOf: await projectsOf(database, ids) }
}

async function projectsOf(database: Db, contractIds: number[]) {
  const rows = await database.db
    .selectFrom('contract')
    .select(['id', 'project_id'])
    .where('id', 'in', contractIds)
    .execute()
  return new Map(rows.map((r) => [r.id, r.project_id]))
}

/** Each contract's year: WEEKS weeks submitted the Monday after they ended (the last 8 days ago), two entries each. */
async function weeks(database: Db, contractIds: number[], projectOf: Map<number, number>) {
  const db = database.db
  const starts = Array.from({ length: WEEKS }, (_, k) => mondayWeeksAgo(WEEKS + 1 - k))
  const all = contractIds.flatMap((contractId, c) =>
    starts.map((weekStart, k) => {
      const submitted = `${addDays(weekStart, 7)}T09:00:00.000Z`
      return {
        contract_id: contractId,
        project_id: projectOf.get(contractId)!,
        week_start: weekStart,
        status: 'submitted',
        // 10 to 38 hours, in whole half days of quarter hours split over two entries.
        quarters: 8 * (5 + ((c * 7 + k) % 15)),
        submitted_at: submitted,
        decided_at: null,
        decided_by: null,
        dispute_reason: null,
        amount_minor: null,
        installment_id: null,
        created_at: `${weekStart}T17:00:00.000Z`,
        updated_at: submitted,
      }
    }),
  )
  for (let k = 0; k < all.length; k += CHUNK) {
    const part = all.slice(k, k + CHUNK)
    const made = await db.insertInto('timesheet_week').values(part).returning('id').execute()
    await db
      .insertInto('timesheet_entry')
      .values(
        made.flatMap((w, i) =>
          [0, 1].map((day) => ({
            week_id: w.id,
            work_date: addDays(part[i].week_start, day),
            quarters: part[i].quarters / 2,
            description: 'Site supervision and the visit report',
            deliverable_id: null,
            created_at: part[i].created_at,
            updated_at: part[i].created_at,
          })),
        ),
      )
      .execute()
  }
  return all.length
}

/** The bench's rows: clients with saved cards, their contracts and each contract's weeks due; how many weeks. */
export async function fill(database: Db, api: Api) {
  const clients = await people(database, 'client', CONTRACTS)
  const freelancers = await people(database, 'freelancer', CONTRACTS)
  const now = new Date().toISOString()
  // The sandbox's saved test card that succeeds (gateways/sandbox.ts chargeSaved).
  for (let k = 0; k < clients.length; k += CHUNK)
    await database.db
      .insertInto('saved_payment_method')
      .values(
        clients.slice(k, k + CHUNK).map((c) => ({
          client_id: c,
          gateway: SANDBOX,
          method_ref: 'sbx_pm_succeeded',
          label: '•••• 4242',
          customer_ref: null,
          created_at: now,
        })),
      )
      .execute()
  const { ids, projectOf } = await contracts(database, api, clients, freelancers)
  const submitted = await weeks(database, ids, projectOf)
  if (database.dialect === 'postgres') await sql`ANALYZE`.execute(database.db)
  return submitted
}

const countBy = async (database: Db, table: 'timesheet_week' | 'payment' | 'installment') =>
  Object.fromEntries(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute()
    ).map((r) => [r.status, Number(r.n)]),
  )

/**
 * On PostgreSQL, what autovacuum's analyze would do while the job runs: every 30 s, ANALYZE each
 * table changed by more than its default threshold (50 rows and 10 % of its live rows) since its
 * last analyze. This machine's PostgreSQL runs with autovacuum off (a CI setting; production has it
 * on), and with the fill's statistics (every week submitted, no payment) per-week queries picked
 * plans that read tens of thousands of rows (decision 363). Answers how many tables it analyzed.
 */
function autoAnalyze(database: Db) {
  let stop = () => {}
  let analyzed = 0
  const stopped = new Promise<void>((resolve) => (stop = resolve))
  const loop = (async () => {
    if (database.dialect !== 'postgres') return
    for (;;) {
      let timer: NodeJS.Timeout | undefined
      const go = await Promise.race([
        stopped.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), 30_000))),
      ])
      clearTimeout(timer)
      if (!go) return
      const { rows } = await sql<{ relname: string }>`select relname from pg_stat_user_tables
        where n_mod_since_analyze > 50 + 0.1 * n_live_tup`.execute(database.db)
      for (const { relname } of rows) await sql`analyze ${sql.table(relname)}`.execute(database.db)
      analyzed += rows.length
    }
  })()
  return async () => {
    stop()
    await loop
    return analyzed
  }
}

/** The server's timesheet job, run once, while a signed-in person asks for their count of notices every 20 ms. */
async function sweep(api: Api, database: Db) {
  const viewer = await api.user('client')
  const analyzing = autoAnalyze(database)
  const probed = await whileProbed(
    () => api.call('GET', 'notifications/count', { token: viewer.token }),
    () =>
      LANES === undefined
        ? api.api.jobs.timesheetSweep.sweep()
        : api.api.services.timesheets.sweep(undefined, undefined, LANES),
  )
  return { ...probed, analyzed: await analyzing() }
}

async function run(database: Db, label: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-timesheets-bench-'))
  try {
    await seedReference(database.db)
    const api = moduleTestApi(database, {
      name: 'timesheets-bench',
      addressBlock: 44,
      dataDir,
      // As a production server answers: without checking each answer against its schema.
      env: { NODE_ENV: 'production' },
    })
    const filling = performance.now()
    const submitted = await fill(database, api)
    const filled = ((performance.now() - filling) / 1000).toFixed(0)
    const load = os.loadavg()[0]!.toFixed(1)
    const s = await sweep(api, database)
    await api.close()
    const [weekStates, payments, installments] = [
      await countBy(database, 'timesheet_week'),
      await countBy(database, 'payment'),
      await countBy(database, 'installment'),
    ]
    return [
      {
        database: label,
        'load avg': `${load} → ${os.loadavg()[0]!.toFixed(1)}`,
        'weeks submitted': submitted,
        'fill s': filled,
        'weeks approved': weekStates.approved ?? 0,
        'weeks charged (payments succeeded)': payments.succeeded ?? 0,
        'installments released': installments.released ?? 0,
        ...probedColumns(s),
        'job ms/week': ((s.seconds * 1000) / Math.max(1, weekStates.approved ?? 0)).toFixed(1),
        'job CPU ms/week': ((s.cpuSeconds * 1000) / Math.max(1, weekStates.approved ?? 0)).toFixed(1),
        'tables analyzed': s.analyzed,
      },
    ]
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function runTimesheetsBench() {
  const results = await onBothDatabases('wk_bench_timesheets', run)
  console.log(
    `\nTimesheets (issue 40): ${CONTRACTS} hourly contracts × ${WEEKS} weeks left unanswered, approved and charged by one run of the timesheet job${LANES ? ` (${LANES} at once)` : ''}:`,
  )
  console.table(results)
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) await runTimesheetsBench()
