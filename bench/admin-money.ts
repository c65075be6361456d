import { sql } from 'kysely'
import type { Db } from '#server/db/database.ts'
import { benchUser, onBothDatabases } from './lib.ts'
import { account } from '#server/modules/payments/ledger.ts'
import { ledgerHealth } from '#server/modules/admin-money/health.ts'
import { createFigures } from '#server/modules/admin-money/figures.ts'

// What the admin's payments screen and dashboard cost on a ledger of BENCH_MOVEMENTS movements
// (decisions 251–252): the five health checks (read on every visit to /admin/payments) and the
// dashboard's figures for 12 and 52 weeks. A client's payments captured into held money and
// released to a freelancer, alternating over the last year, written in bulk (balanced pairs, the
// running balances set from the entries, so every check is green). Median of BENCH_ADMIN_RUNS.
// Alone: `node bench/admin-money.ts`.
const MOVEMENTS = Number(process.env.BENCH_MOVEMENTS ?? 10_000)
const RUNS = Number(process.env.BENCH_ADMIN_RUNS ?? 9)
const DAY = 86_400_000

async function seed(database: Db) {
  const now = new Date().toISOString()
  const user = async (n: number, type: 'client' | 'freelancer') =>
    (
      await database.db
        .insertInto('app_user')
        .values(benchUser(`admin-bench-${n}@bench.test`, type, now))
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
  const [client, freelancer] = [await user(1, 'client'), await user(2, 'freelancer')]
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
  const [held, available, clearing] = [
    await accountId(account.held(client, 'EUR')),
    await accountId(account.available(freelancer, 'EUR')),
    await accountId(account.clearing('sandbox', 'EUR')),
  ]
  const start = Date.now() - 365 * DAY
  await database.db.transaction().execute(async (trx) => {
    for (let from = 0; from < MOVEMENTS; from += 500) {
      const n = Math.min(500, MOVEMENTS - from)
      const at = (k: number) =>
        new Date(start + Math.floor(((from + k) / MOVEMENTS) * 364 * DAY)).toISOString()
      // Even: a capture into held; odd: its release out of held.
      const ids = await trx
        .insertInto('ledger_transaction')
        .values(
          Array.from({ length: n }, (_, k) => ({
            kind: (from + k) % 2 ? 'release' : 'capture',
            ref: `bench:a:${from + k}`,
            contract_id: null,
            installment_id: null,
            payment_id: null,
            reverses_id: null,
            memo: null,
            created_at: at(k),
          })),
        )
        .returning('id')
        .execute()
      await trx
        .insertInto('ledger_entry')
        .values(
          ids.flatMap((t, k) =>
            (from + k) % 2
              ? [
                  { transaction_id: t.id, account_id: held, amount_minor: 1000, currency: 'EUR' },
                  { transaction_id: t.id, account_id: available, amount_minor: -1000, currency: 'EUR' },
                ]
              : [
                  { transaction_id: t.id, account_id: held, amount_minor: -1000, currency: 'EUR' },
                  { transaction_id: t.id, account_id: clearing, amount_minor: 1000, currency: 'EUR' },
                ],
          ),
        )
        .execute()
    }
    await sql`update ledger_account set balance_minor = coalesce((select sum(e.amount_minor) from ledger_entry e where e.account_id = ledger_account.id), 0)`.execute(
      trx,
    )
  })
  if (database.dialect === 'postgres') await sql`ANALYZE`.execute(database.db)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function run(database: Db, label: string) {
  await seed(database)
  const figures = createFigures(database.db, database.dialect)
  const time = async (scenario: string, work: () => Promise<unknown>) => {
    await work()
    const ms: number[] = []
    for (let n = 0; n < RUNS; n++) {
      const started = performance.now()
      await work()
      ms.push(performance.now() - started)
    }
    return { scenario: `${label}: ${scenario}`, 'median ms': median(ms).toFixed(1) }
  }
  const health = await ledgerHealth(database.db)
  if (!health.checks.every((h) => h.ok))
    throw new Error(`the bench's ledger is not healthy: ${JSON.stringify(health)}`)
  return [
    await time('ledger health, five checks (every 15 minutes and on demand, not per page view)', () =>
      ledgerHealth(database.db),
    ),
    await time('dashboard, 12 weeks', () => figures.dashboard(12)),
    await time('dashboard, 52 weeks', () => figures.dashboard(52)),
  ]
}

export async function runAdminMoneyBench() {
  const results = await onBothDatabases('wk_bench_admin_money', run)
  console.log(`\nAdmin money (issue 18): a ledger of ${MOVEMENTS} movements, median of ${RUNS} runs:`)
  console.table(results)
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) await runAdminMoneyBench()
