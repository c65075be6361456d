import { sql } from 'kysely'
import type { DB } from '#server/db/database.ts'
import { feeLeft } from '../payments/fees.ts'
import { heldStates } from '../projects/machines.ts'
import type { HealthCheck, HealthProblem } from './contract.ts'

// The ledger's health (issue 18 item 3, decision 252): the invariants of decision 170 read straight
// from the rows, each answered OK or with what breaks it, so an operator sees a problem the day it
// appears rather than when a user's balance is wrong. Each check is one query over the ledger
// (or the installments that hold money); none trusts the running balances it is checking.

/** Accounts whose owner is owed money: their entries may never add up to more than zero (decision 170). */
const creditNormal = ['client_held', 'freelancer_available', 'platform_fees', 'payout_in_flight']

const problem = (
  subject: string,
  currency: string,
  amountMinor: number,
  expectedMinor = 0,
): HealthProblem => ({ subject, currency, amountMinor: Number(amountMinor), expectedMinor })

export interface LedgerHealth {
  checks: Array<{ check: HealthCheck; ok: boolean; problems: HealthProblem[] }>
  /** Every currency's sum of entries (0 when its transactions balance), for /metrics. */
  sums: Array<{ currency: string; sumMinor: number }>
}

export async function ledgerHealth(db: DB): Promise<LedgerHealth> {
  const sums = (
    await db
      .selectFrom('ledger_entry')
      .select(['currency', (eb) => eb.fn.sum<number>('amount_minor').as('sum')])
      .groupBy('currency')
      .orderBy('currency')
      .execute()
  ).map((c) => ({ currency: c.currency, sumMinor: Number(c.sum) }))
  const currencies = sums.filter((c) => c.sumMinor !== 0)
  const unbalanced = await db
    .selectFrom('ledger_entry')
    .select(['transaction_id', 'currency', (eb) => eb.fn.sum<number>('amount_minor').as('sum')])
    .groupBy(['transaction_id', 'currency'])
    .having((eb) => eb.fn.sum('amount_minor'), '<>', 0)
    .orderBy('transaction_id')
    .limit(50)
    .execute()
  const negative = await db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
    .select([
      'a.id',
      'a.kind',
      'a.owner',
      'a.currency',
      (eb) => eb.fn.sum<number>('e.amount_minor').as('sum'),
    ])
    .where('a.kind', 'in', creditNormal)
    .groupBy(['a.id', 'a.kind', 'a.owner', 'a.currency'])
    .having((eb) => eb.fn.sum('e.amount_minor'), '>', 0)
    .limit(50)
    .execute()
  const drifted = await sql<{
    id: number
    kind: string
    owner: string
    currency: string
    balance_minor: number
    sum: number
  }>`
    select a.id, a.kind, a.owner, a.currency, a.balance_minor, coalesce((select sum(e.amount_minor) from ledger_entry e where e.account_id = a.id), 0) as sum
    from ledger_account a
    where a.balance_minor <> coalesce((select sum(e.amount_minor) from ledger_entry e where e.account_id = a.id), 0)
    limit 50`.execute(db)
  const checks = [
    {
      check: 'currenciesSumToZero',
      problems: currencies.map((c) => problem(c.currency, c.currency, c.sumMinor)),
    },
    {
      check: 'transactionsBalance',
      problems: unbalanced.map((u) => problem(`transaction ${u.transaction_id}`, u.currency, u.sum)),
    },
    {
      check: 'noNegativeBalances',
      problems: negative.map((n) => problem(`${n.kind} ${n.owner}`, n.currency, -Number(n.sum))),
    },
    {
      check: 'runningSumsMatch',
      problems: drifted.rows.map((d) =>
        problem(`${d.kind} ${d.owner}`, d.currency, -Number(d.balance_minor), -Number(d.sum)),
      ),
    },
    { check: 'heldMatchesInstallments', problems: await heldMismatches(db) },
  ].map((c) => ({ ...(c as { check: HealthCheck; problems: HealthProblem[] }), ok: c.problems.length === 0 }))
  return { checks, sums }
}

/**
 * Per client and currency, the money the ledger holds equals what their installments say is held:
 * the price left and its share of the client fee of every funded, not yet released installment,
 * plus money captured for installments that no longer awaited funding (decision 172: held for the
 * client, never applied, never refunded). A failed refund of a whole installment shows here too:
 * its money is held again while the installment awaits funding, and support must follow it up.
 */
async function heldMismatches(db: DB) {
  const held = await db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
    .select(['a.owner', 'a.currency', (eb) => eb.fn.sum<number>('e.amount_minor').as('sum')])
    .where('a.kind', '=', 'client_held')
    .groupBy(['a.owner', 'a.currency'])
    .execute()
  const funded = await db
    .selectFrom('payment_installment as pi')
    .innerJoin('payment as p', 'p.id', 'pi.payment_id')
    .innerJoin('installment as i', 'i.id', 'pi.installment_id')
    .select(['p.client_id', 'p.currency', 'pi.amount_minor', 'pi.fee_minor', 'i.refunded_minor'])
    .where('pi.applied', '=', 1)
    .where('i.status', 'in', heldStates)
    .execute()
  const unapplied = await db
    .selectFrom('payment_installment as pi')
    .innerJoin('payment as p', 'p.id', 'pi.payment_id')
    .select(['p.client_id', 'p.currency', 'pi.amount_minor', 'pi.fee_minor'])
    .where('p.status', '=', 'succeeded')
    .where('pi.applied', '=', 0)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('ledger_transaction as t')
            .select('t.id')
            .where('t.kind', '=', 'refund')
            .whereRef('t.payment_id', '=', 'pi.payment_id')
            .whereRef('t.installment_id', '=', 'pi.installment_id'),
        ),
      ),
    )
    .execute()
  const expected = new Map<string, number>()
  const add = (clientId: number, currency: string, minor: number) =>
    expected.set(`user:${clientId}|${currency}`, (expected.get(`user:${clientId}|${currency}`) ?? 0) + minor)
  for (const f of funded)
    add(
      f.client_id,
      f.currency,
      f.amount_minor - f.refunded_minor + feeLeft(f.fee_minor, f.amount_minor, f.refunded_minor),
    )
  for (const u of unapplied) add(u.client_id, u.currency, u.amount_minor + u.fee_minor)
  const problems: HealthProblem[] = []
  const seen = new Set<string>()
  for (const h of held) {
    const key = `${h.owner}|${h.currency}`
    seen.add(key)
    const want = expected.get(key) ?? 0
    if (-Number(h.sum) !== want)
      problems.push(problem(`client_held ${h.owner}`, h.currency, -Number(h.sum), want))
  }
  for (const [key, want] of expected)
    if (!seen.has(key) && want !== 0)
      problems.push(problem(`client_held ${key.split('|')[0]}`, key.split('|')[1], 0, want))
  return problems.slice(0, 50)
}
