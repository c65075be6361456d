import { payoutOfRef, payoutRef } from './payout-rows.ts'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import type { StatementQuery } from './invoices-contract.ts'

// The caller's statement (decision 193): every ledger entry of their accounts, oldest first, with
// the running balance of their money per currency. Their money is what Workneer holds for them
// (held for their contracts, available to withdraw): a withdrawal leaves it once, when it is asked
// for, and the money on its way to the bank (payout_in_flight) is not a second movement; the
// withdrawal's row says whether the bank has it yet (decision 309).

const endOfDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString()

/** The ids of the page's entries (one more, to tell whether a next page exists), and how many there are in all unless paging by cursor. */
async function pageIds(db: DB, caller: Caller, q: StatementQuery) {
  const size = q.pageSize
  // First the page's entry ids, from the caller's accounts alone (the transactions are joined
  // only to filter by date), then the details of just those: the joins cost a page, not the
  // whole history.
  let inRange = db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
    .where('a.user_id', '=', caller.userId)
    .where('a.kind', '!=', 'payout_in_flight')
  if (q.from || q.to) {
    let dated = inRange.innerJoin('ledger_transaction as t', 't.id', 'e.transaction_id')
    if (q.from) dated = dated.where('t.created_at', '>=', `${q.from}T00:00:00.000Z`)
    if (q.to) dated = dated.where('t.created_at', '<', endOfDay(q.to))
    inRange = dated as unknown as typeof inRange
  }
  let ids = inRange.select('e.id')
  if (q.after !== undefined) ids = ids.where('e.id', '>', q.after)
  // The export pages by cursor and needs no count; the page shows how many pages there are.
  const [page, count] = await Promise.all([
    ids
      .orderBy('e.id', 'asc')
      .limit(size + 1)
      .offset(q.after !== undefined ? 0 : (q.page - 1) * size)
      .execute(),
    q.after !== undefined
      ? null
      : inRange.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { page, count }
}

/** The entries' details: amount, account, movement and what project and installment they were for. */
const entries = (db: DB, ids: number[]) =>
  db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
    .innerJoin('ledger_transaction as t', 't.id', 'e.transaction_id')
    .leftJoin('contract as c', 'c.id', 't.contract_id')
    .leftJoin('project as p', 'p.id', 'c.project_id')
    .leftJoin('installment as i', 'i.id', 't.installment_id')
    .select([
      'e.id',
      'e.amount_minor',
      'e.currency',
      'a.kind as account',
      't.kind as movement',
      't.ref',
      't.created_at',
      'c.project_id',
      'p.title as project_title',
      'i.title as installment_title',
      'i.amount_minor as installment_minor',
      'i.refunded_minor as installment_refunded_minor',
    ])
    .where('e.id', 'in', ids)
    .orderBy('e.id', 'asc')
    .execute()

/** The caller's money per currency before entry `firstId`: one indexed sum of their earlier entries. */
async function balancesBefore(db: DB, caller: Caller, firstId: number) {
  const balances = new Map<string, number>()
  const before = await db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
    .select(['a.currency', (eb) => eb.fn.sum<number>('e.amount_minor').as('sum')])
    .where('a.user_id', '=', caller.userId)
    .where('a.kind', '!=', 'payout_in_flight')
    .where('e.id', '<', firstId)
    .groupBy('a.currency')
    .execute()
  // Every account of a user is money owed to them (credit-normal): their money is minus the sum.
  for (const b of before) balances.set(b.currency, -Number(b.sum))
  return balances
}

/** A payout's state as its statement row says it. */
const withdrawalOf = { requested: 'pending', paid: 'paid', failed: 'returned' } as const
type Withdrawal = (typeof withdrawalOf)[keyof typeof withdrawalOf]

/** Where each withdrawal of the page is now, by its ledger ref (`payout:<id>`). */
async function payoutStates(db: DB, refs: Array<string | null>) {
  const ids = refs.flatMap((ref) => payoutOfRef(ref) ?? [])
  if (!ids.length) return new Map<string, Withdrawal>()
  const rows = await db.selectFrom('payout').select(['id', 'status']).where('id', 'in', ids).execute()
  return new Map(
    rows.map((r) => [payoutRef(r.id), withdrawalOf[r.status as keyof typeof withdrawalOf] ?? 'pending']),
  )
}

/**
 * A release's price and fee beside its amount: the freelancer gets the price less the platform's
 * commission, the client pays the price and their service fee. A release ends the installment's
 * refunds, so its price is what was not refunded.
 */
function priceAndFee(r: {
  movement: string
  amount: number
  installmentMinor: number | null
  refunded: number | null
}) {
  if (r.movement !== 'release' || r.installmentMinor == null) return { priceMinor: null, feeMinor: null }
  const priceMinor = r.installmentMinor - (r.refunded ?? 0)
  return { priceMinor, feeMinor: Math.abs(Math.abs(r.amount) - priceMinor) }
}

/**
 * The caller's statement: each entry of their money in the dates asked (UTC days, both
 * included), oldest first, with the balance of their money in its currency after it. A page is
 * `page` (offset) or the entries after `after` (the export's cursor); the balance before the
 * page is one indexed sum of the caller's earlier entries, so any page costs the same.
 */
export async function statement(db: DB, caller: Caller, q: StatementQuery) {
  const size = q.pageSize
  const { page, count } = await pageIds(db, caller, q)
  const data = page.length
    ? await entries(
        db,
        page.slice(0, size).map((r) => r.id),
      )
    : []
  const [balances, payouts] = await Promise.all([
    data.length ? balancesBefore(db, caller, data[0].id) : new Map<string, number>(),
    payoutStates(
      db,
      data.map((r) => r.ref),
    ),
  ])
  return {
    data: data.map((r) => {
      const amountMinor = -Number(r.amount_minor)
      const balanceMinor = (balances.get(r.currency) ?? 0) + amountMinor
      balances.set(r.currency, balanceMinor)
      return {
        id: r.id,
        at: new Date(r.created_at).toISOString(),
        movement: r.movement,
        account: r.account,
        projectId: r.project_id,
        projectTitle: r.project_title,
        installmentTitle: r.installment_title,
        amountMinor,
        ...priceAndFee({
          movement: r.movement,
          amount: amountMinor,
          installmentMinor: r.installment_minor == null ? null : Number(r.installment_minor),
          refunded: r.installment_refunded_minor == null ? null : Number(r.installment_refunded_minor),
        }),
        withdrawal: r.movement === 'payout' ? (payouts.get(r.ref ?? '') ?? 'pending') : null,
        currency: r.currency,
        balanceMinor,
      }
    }),
    page: q.page,
    pageSize: size,
    total: count ? Number(count.n) : null,
    hasNext: page.length > size,
    next: page.length > size ? data[data.length - 1].id : null,
  }
}
