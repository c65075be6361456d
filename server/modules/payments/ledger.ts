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

const keyOf = (k: Pick<AccountKey, 'owner' | 'currency'> & { kind: string }) =>
  `${k.kind} ${k.owner} ${k.currency}`

/** The accounts of a posting's lines, in one read when they all exist (each account made on its first use). */
async function accountIds(trx: Trx, lines: Line[]) {
  const found = await trx
    .selectFrom('ledger_account')
    .select(['id', 'kind', 'owner', 'currency'])
    .where((eb) =>
      eb.or(
        lines.map(({ account: k }) =>
          eb.and([eb('kind', '=', k.kind), eb('owner', '=', k.owner), eb('currency', '=', k.currency)]),
        ),
      ),
    )
    .execute()
  const known = new Map(found.map((a) => [keyOf(a), a.id]))
  const ids: number[] = []
  for (const l of lines) ids.push(known.get(keyOf(l.account)) ?? (await accountId(trx, l.account)))
  return ids
}

/**
 * The running sums of the platform's own accounts (a gateway's clearing, the platform's fees) that
 * a transaction moves where their rule cannot fail, kept for its end (`platformSumsLast`): every
 * capture and release moves them, and the row an UPDATE moves stays locked until commit.
 */
const pendingSums = new WeakMap<Trx, Map<number, number>>()

/**
 * Runs `work` in `trx` with the platform accounts' running sums moved at its end rather than at
 * each posting, so concurrent transactions (the timesheet sweep's contracts, decision 354) wait
 * on those rows only for the end of each other's, not for all of it. The entries are written at
 * once as always; an account whose rule must be checked (a credit-normal one charged) is moved
 * at once, its pending sum with it.
 */
export async function platformSumsLast<T>(trx: Trx, work: () => Promise<T>): Promise<T> {
  const pending = new Map<number, number>()
  pendingSums.set(trx, pending)
  try {
    const result = await work()
    for (const id of [...pending.keys()].sort((a, b) => a - b))
      await trx
        .updateTable('ledger_account')
        .set((eb) => ({ balance_minor: eb('balance_minor', '+', pending.get(id)!) }))
        .where('id', '=', id)
        .execute()
    return result
  } finally {
    pendingSums.delete(trx)
  }
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
  const ids = await accountIds(trx, p.lines)
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
  // Each account's running sum moves with its entries: the people's accounts first, then the
  // platform's, each in id order (so two postings never wait on each other crosswise); the UPDATE
  // holds the row until commit, so no concurrent posting can spend the same money, and a
  // credit-normal account that would end above zero rolls it all back.
  const deltas = new Map<number, number>()
  ids.forEach((id, n) => deltas.set(id, (deltas.get(id) ?? 0) + p.lines[n].amountMinor))
  const lineOf = (id: number) => p.lines[ids.indexOf(id)].account
  const platformLast = (id: number) => (lineOf(id).userId === null ? 1 : 0)
  const pending = pendingSums.get(trx)
  for (const id of [...deltas.keys()].sort((a, b) => platformLast(a) - platformLast(b) || a - b)) {
    const { kind, userId } = lineOf(id)
    const delta = deltas.get(id)! + (pending?.get(id) ?? 0)
    pending?.delete(id)
    if (pending && userId === null && (!creditNormal.has(kind) || delta < 0)) {
      pending.set(id, delta)
      continue
    }
    const row = await trx
      .updateTable('ledger_account')
      .set((eb) => ({ balance_minor: eb('balance_minor', '+', delta) }))
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
