import { sql } from 'kysely'
import type { Db } from '#server/db/database.ts'
import { benchUser, onBothDatabases } from './lib.ts'
import { account } from '#server/modules/payments/ledger.ts'
import { createInvoices } from '#server/modules/payments/invoices.ts'

// Issue 17: the cost of a statement of 10,000 movements on SQLite and PostgreSQL (decision 193).
// A freelancer with BENCH_MOVEMENTS releases over a year (and a client with as many, so the
// ledger holds twice that) asks: the first page, the last page, a month in the middle, and the
// whole statement as the CSV export reads it (1,000 at a time by cursor, each line written as
// CSV). The ledger rows are written in bulk (balanced pairs), not posted one by one: this measures
// reading. Median of BENCH_STATEMENT_RUNS runs (the export: a third of them).
const MOVEMENTS = Number(process.env.BENCH_MOVEMENTS ?? 10_000)
const RUNS = Number(process.env.BENCH_STATEMENT_RUNS ?? 15)
const DAY = 86_400_000

async function seed(database: Db) {
  const now = new Date().toISOString()
  const user = (n: number, type: 'client' | 'freelancer') =>
    database.db
      .insertInto('app_user')
      .values(benchUser(`statement-${n}@bench.test`, type, now))
      .returning('id')
      .executeTakeFirstOrThrow()
  const [client, freelancer] = [(await user(1, 'client')).id, (await user(2, 'freelancer')).id]
  const accountId = async (key: ReturnType<typeof account.held>) =>
    (
      await database.db
        .insertInto('ledger_account')
        .values({
          kind: key.kind,
          owner: key.owner,
          user_id: key.userId,
          currency: key.currency,
          balance_minor: 0,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
  const held = await accountId(account.held(client, 'EUR'))
  const available = await accountId(account.available(freelancer, 'EUR'))
  const start = Date.parse('2025-01-01T00:00:00Z')
  await database.db.transaction().execute(async (trx) => {
    for (let from = 0; from < MOVEMENTS; from += 500) {
      const n = Math.min(500, MOVEMENTS - from)
      const ids = await trx
        .insertInto('ledger_transaction')
        .values(
          Array.from({ length: n }, (_, k) => ({
            kind: 'release',
            ref: `bench:s:${from + k}`,
            contract_id: null,
            installment_id: null,
            payment_id: null,
            reverses_id: null,
            memo: null,
            created_at: new Date(start + Math.floor(((from + k) / MOVEMENTS) * 365 * DAY)).toISOString(),
          })),
        )
        .returning('id')
        .execute()
      await trx
        .insertInto('ledger_entry')
        .values(
          ids.flatMap((t, k) => [
            {
              transaction_id: t.id,
              account_id: held,
              amount_minor: 1000 + ((from + k) % 97),
              currency: 'EUR',
            },
            {
              transaction_id: t.id,
              account_id: available,
              amount_minor: -(1000 + ((from + k) % 97)),
              currency: 'EUR',
            },
          ]),
        )
        .execute()
    }
  })
  // As autovacuum would soon after such a load: the planner needs the new rows' statistics.
  if (database.dialect === 'postgres') await sql`ANALYZE`.execute(database.db)
  return freelancer
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const cell = (v: string | number) =>
  /[",\r\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v)

async function run(database: Db, label: string) {
  const freelancer = await seed(database)
  const invoices = createInvoices({ db: database.db })
  const caller = { userId: freelancer, sessionId: 'bench', roles: [] }
  const ask = (q: Partial<Parameters<typeof invoices.statement>[1]>) =>
    invoices.statement(caller, { page: 1, pageSize: 50, ...q })
  const time = async (scenario: string, work: () => Promise<number>, runs = RUNS) => {
    await work() // warm the caches and the statement plans
    const ms: number[] = []
    let rows = 0
    for (let n = 0; n < runs; n++) {
      const started = performance.now()
      rows = await work()
      ms.push(performance.now() - started)
    }
    return { scenario: `${label}: ${scenario}`, rows, 'median ms': median(ms).toFixed(1) }
  }
  const last = Math.ceil(MOVEMENTS / 50)
  return [
    await time('first page (50)', async () => (await ask({})).data.length),
    await time(`last page (${last})`, async () => (await ask({ page: last })).data.length),
    await time(
      'one month (June), first page',
      async () => (await ask({ from: '2025-06-01', to: '2025-06-30' })).data.length,
    ),
    await time(
      `CSV export, all ${MOVEMENTS} by 1,000`,
      async () => {
        let after = 0
        let lines = 0
        let bytes = 0
        for (;;) {
          const page = await ask({ after, pageSize: 1000 })
          const text = page.data
            .map((m) =>
              [
                m.at,
                m.movement,
                m.projectTitle ?? '',
                m.account,
                m.amountMinor / 100,
                m.currency,
                m.balanceMinor / 100,
              ]
                .map(cell)
                .join(','),
            )
            .join('\r\n')
          bytes += text.length
          lines += page.data.length
          if (!page.next) return bytes ? lines : 0
          after = page.next
        }
      },
      Math.max(3, Math.round(RUNS / 3)),
    ),
  ]
}

export async function runStatementsBench() {
  const results = await onBothDatabases('wk_bench_statements', run)
  console.log(`\nStatements (issue 17): a user with ${MOVEMENTS} movements, median of ${RUNS} runs:`)
  console.table(results)
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) await runStatementsBench()
