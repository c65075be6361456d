import type { Db } from '#server/db/database.ts'
import { benchUser, onBothDatabases } from './lib.ts'
import { account, post } from '#server/modules/payments/ledger.ts'

// Issue 17: ledger postings per second on SQLite and PostgreSQL, each posting one transaction as
// the payments service makes them: a capture (gateway clearing → a client's held money, two
// entries) and a release (held → freelancer and platform fees, three entries, with the check that
// no owed account goes below zero). One at a time, then 8 at once (PostgreSQL's pool; SQLite's one
// handle serialises them). BENCH_POSTINGS sets how many of each.
const POSTINGS = Number(process.env.BENCH_POSTINGS ?? 2000)
const USERS = 50

async function users(database: Db) {
  const now = new Date().toISOString()
  const ids: number[] = []
  for (let n = 0; n < USERS; n++) {
    const row = await database.db
      .insertInto('app_user')
      .values(benchUser(`ledger-${n}@bench.test`, n % 2 ? 'freelancer' : 'client', now))
      .returning('id')
      .executeTakeFirstOrThrow()
    ids.push(row.id)
  }
  return ids
}

async function run(database: Db, label: string) {
  const ids = await users(database)
  const clients = ids.filter((_, n) => n % 2 === 0)
  const freelancers = ids.filter((_, n) => n % 2 === 1)
  let ref = 0
  const capture = (i: number) =>
    database.db.transaction().execute((trx) =>
      post(trx, database.dialect, {
        kind: 'capture',
        ref: `bench:c:${++ref}`,
        lines: [
          { account: account.clearing('sandbox', 'EUR'), amountMinor: 10300 },
          { account: account.held(clients[i % clients.length], 'EUR'), amountMinor: -10300 },
        ],
      }),
    )
  const release = (i: number) =>
    database.db.transaction().execute((trx) =>
      post(trx, database.dialect, {
        kind: 'release',
        ref: `bench:r:${++ref}`,
        lines: [
          { account: account.held(clients[i % clients.length], 'EUR'), amountMinor: 10300 },
          { account: account.available(freelancers[i % freelancers.length], 'EUR'), amountMinor: -9000 },
          { account: account.fees('EUR'), amountMinor: -1300 },
        ],
      }),
    )
  const rows: Array<{ scenario: string; postings: number; ms: number }> = []
  const time = async (scenario: string, work: (i: number) => Promise<unknown>, parallel: number) => {
    const started = performance.now()
    let next = 0
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        for (let i = next++; i < POSTINGS; i = next++) await work(i)
      }),
    )
    rows.push({ scenario: `${label}: ${scenario}`, postings: POSTINGS, ms: performance.now() - started })
  }
  await time('capture, 2 entries, one at a time', capture, 1)
  await time('release, 3 entries + balance check, one at a time', release, 1)
  await time('capture, 2 entries, 8 at once', capture, 8)
  await time('release, 3 entries + balance check, 8 at once', release, 8)
  return rows
}

/** Runs a scenario on a fresh database of each kind, made and dropped as the integration tests make theirs. */
export async function runLedgerBench() {
  const results = await onBothDatabases('wk_bench_ledger', run)
  console.log('\nLedger postings (issue 17), one balanced transaction each:')
  console.table(
    results.map((r) => ({
      scenario: r.scenario,
      postings: r.postings,
      seconds: (r.ms / 1000).toFixed(2),
      'postings/s': Math.round((r.postings / r.ms) * 1000),
    })),
  )
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) await runLedgerBench()
