import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'

// The double-entry ledger (decision 170). An entry's amount is signed: a debit is positive, a
// credit negative, so a transaction balances when its entries add up to zero in each currency and
// the sum of every account in a currency is always zero. Accounts of money the platform owes
// someone (a client's held money, a freelancer's available money, the platform's fees) are
// credit-normal: their entries may never add up to more than zero. Gateway clearing is what a
// gateway owes the platform (debit-normal, unchecked: a payout or refund may run ahead of capture).

export type Trx = Transaction<Database>
type Executor = Kysely<Database> | Trx

export const accountKinds = [
  'client_held',
  'freelancer_available',
  'platform_fees',
  'gateway_clearing',
  'payout_in_flight',
] as const
export type AccountKind = (typeof accountKinds)[number]
// payout_in_flight: a freelancer's money on its way out, asked for but not yet paid by the gateway (decision 185).
const creditNormal: ReadonlySet<AccountKind> = new Set([
  'client_held',
  'freelancer_available',
  'platform_fees',
  'payout_in_flight',
])

export interface AccountKey {
  kind: AccountKind
  owner: string
  userId: number | null
  currency: string
}

export const account = {
  held: (clientId: number, currency: string): AccountKey => ({
    kind: 'client_held',
    owner: `user:${clientId}`,
    userId: clientId,
    currency,
  }),
  available: (freelancerId: number, currency: string): AccountKey => ({
    kind: 'freelancer_available',
    owner: `user:${freelancerId}`,
    userId: freelancerId,
    currency,
  }),
  fees: (currency: string): AccountKey => ({
    kind: 'platform_fees',
    owner: 'platform',
    userId: null,
    currency,
  }),
  clearing: (gateway: string, currency: string): AccountKey => ({
    kind: 'gateway_clearing',
    owner: gateway,
    userId: null,
    currency,
  }),
  inFlight: (freelancerId: number, currency: string): AccountKey => ({
    kind: 'payout_in_flight',
    owner: `user:${freelancerId}`,
    userId: freelancerId,
    currency,
  }),
}

export interface Line {
  account: AccountKey
  /** minor units; debit positive, credit negative */
  amountMinor: number
}

export interface Posting {
  kind: 'capture' | 'release' | 'refund' | 'reversal' | 'payout' | 'payout_paid'
  /** Names the movement; a second posting with the same ref is not made (the first stands). */
  ref: string
  lines: Line[]
  contractId?: number | null
  installmentId?: number | null
  paymentId?: number | null
  reversesId?: number | null
  memo?: string | null
}

/** A posting that would break the ledger's rules: a programming error or a race lost, never partial. */
export class LedgerError extends Error {
  override name = 'LedgerError'
}

/** The rules every posting must keep, checked before anything is written. */
export function checkBalanced(lines: Line[]) {
  if (lines.length < 2) throw new LedgerError('a transaction needs at least two entries')
  const sums = new Map<string, number>()
  for (const l of lines) {
    if (!Number.isSafeInteger(l.amountMinor) || l.amountMinor === 0)
      throw new LedgerError(`entry amounts are non-zero whole minor units (got ${l.amountMinor})`)
    if (!/^[A-Z]{3}$/.test(l.account.currency))
      throw new LedgerError(`unknown currency ${l.account.currency}`)
    sums.set(l.account.currency, (sums.get(l.account.currency) ?? 0) + l.amountMinor)
  }
  for (const [currency, sum] of sums)
    if (sum !== 0) throw new LedgerError(`the entries in ${currency} add up to ${sum}, not zero`)
}

async function accountId(trx: Trx, key: AccountKey) {
  const found = await trx
    .selectFrom('ledger_account')
    .select('id')
    .where('kind', '=', key.kind)
    .where('owner', '=', key.owner)
    .where('currency', '=', key.currency)
    .executeTakeFirst()
  if (found) return found.id
  await trx
    .insertInto('ledger_account')
    .values({
      kind: key.kind,
      owner: key.owner,
      user_id: key.userId,
      currency: key.currency,
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.columns(['kind', 'owner', 'currency']).doNothing())
    .execute()
  return (
    await trx
      .selectFrom('ledger_account')
      .select('id')
      .where('kind', '=', key.kind)
      .where('owner', '=', key.owner)
      .where('currency', '=', key.currency)
      .executeTakeFirstOrThrow()
  ).id
}

/**
 * Appends one balanced transaction inside the caller's transaction, or nothing when its ref was
 * posted before (answers posted: false). The entries are the record; each account's running sum
 * (balance_minor) is kept beside them in the same transaction and must always equal their sum.
 */
export async function post(trx: Trx, dialect: Dialect, p: Posting): Promise<{ posted: boolean; id: number }> {
  checkBalanced(p.lines)
  const now = new Date().toISOString()
  const inserted = await trx
    .insertInto('ledger_transaction')
    .values({
      kind: p.kind,
      ref: p.ref,
      contract_id: p.contractId ?? null,
      installment_id: p.installmentId ?? null,
      payment_id: p.paymentId ?? null,
      reverses_id: p.reversesId ?? null,
      memo: p.memo ?? null,
      created_at: now,
    })
    .onConflict((oc) => oc.column('ref').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted)
    return {
      posted: false,
      id: (
        await trx
          .selectFrom('ledger_transaction')
          .select('id')
          .where('ref', '=', p.ref)
          .executeTakeFirstOrThrow()
      ).id,
    }
  const ids = await Promise.all(p.lines.map((l) => accountId(trx, l.account)))
  await trx
    .insertInto('ledger_entry')
    .values(
      p.lines.map((l, n) => ({
        transaction_id: inserted.id,
        account_id: ids[n],
        amount_minor: l.amountMinor,
        currency: l.account.currency,
      })),
    )
    .execute()
  // Each account's running sum moves with its entries, in id order (so two postings never wait on
  // each other crosswise); the UPDATE holds the row until commit, so no concurrent posting can
  // spend the same money, and a credit-normal account that would end above zero rolls it all back.
  const deltas = new Map<number, number>()
  ids.forEach((id, n) => deltas.set(id, (deltas.get(id) ?? 0) + p.lines[n].amountMinor))
  for (const id of [...deltas.keys()].sort((a, b) => a - b)) {
    const kind = p.lines[ids.indexOf(id)].account.kind
    const row = await trx
      .updateTable('ledger_account')
      .set((eb) => ({ balance_minor: eb('balance_minor', '+', deltas.get(id)!) }))
      .where('id', '=', id)
      .returning('balance_minor')
      .executeTakeFirstOrThrow()
    if (creditNormal.has(kind) && Number(row.balance_minor) > 0)
      throw new LedgerError(`account ${id} would go below zero (${p.ref})`)
  }
  return { posted: true, id: inserted.id }
}

/** An account's balance in its normal direction (what is owed to its owner), from its entries. */
export async function balanceOf(db: Executor, key: AccountKey) {
  const row = await db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
    .select((eb) => eb.fn.sum<number>('e.amount_minor').as('sum'))
    .where('a.kind', '=', key.kind)
    .where('a.owner', '=', key.owner)
    .where('a.currency', '=', key.currency)
    .executeTakeFirst()
  const sum = Number(row?.sum ?? 0)
  return creditNormal.has(key.kind) ? -sum : sum
}

/** A user's money per currency: held for their contracts, available, earned in all (releases credited) and paid out (payouts the gateway paid). */
export async function userBalances(db: Executor, userId: number) {
  const rows = await db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
    .innerJoin('ledger_transaction as t', 't.id', 'e.transaction_id')
    .select([
      'a.kind',
      'a.currency',
      't.kind as movement',
      (eb) => eb.fn.sum<number>('e.amount_minor').as('sum'),
    ])
    .where('a.user_id', '=', userId)
    .groupBy(['a.kind', 'a.currency', 't.kind'])
    .execute()
  const out = new Map<
    string,
    { currency: string; heldMinor: number; availableMinor: number; earnedMinor: number; paidOutMinor: number }
  >()
  for (const r of rows) {
    const b = out.get(r.currency) ?? {
      currency: r.currency,
      heldMinor: 0,
      availableMinor: 0,
      earnedMinor: 0,
      paidOutMinor: 0,
    }
    const owed = -Number(r.sum)
    if (r.kind === 'client_held') b.heldMinor += owed
    if (r.kind === 'freelancer_available') {
      b.availableMinor += owed
      if (r.movement === 'release') b.earnedMinor += owed
    }
    if (r.kind === 'payout_in_flight' && r.movement === 'payout_paid') b.paidOutMinor -= owed
    out.set(r.currency, b)
  }
  return [...out.values()].sort((a, b) => a.currency.localeCompare(b.currency))
}
