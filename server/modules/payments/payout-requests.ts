import type { DB } from '#server/db/database.ts'
import { ApiError } from '#server/api/errors.ts'
import type { Caller } from '#server/api/handler.ts'
import { paymentDestination } from '../profiles/rules.ts'
import { account, post, type Trx } from './ledger.ts'
import type { GatewayMoneyResult } from './gateways/gateway.ts'
import type { PayoutInput } from './contract.ts'
import {
  badRequest,
  columns,
  nowIso,
  payoutRef,
  presentPayout,
  type PayoutDeps,
  type PayoutRow,
} from './payout-rows.ts'
import { settlePayout } from './payout-settlement.ts'

// A freelancer asks for a payout: everything is checked and the money moves in flight in one
// transaction, then the gateway is asked to pay it.

/** The caller's available money per currency (the running balance, which always equals its entries' sum). */
export async function availableMoney(executor: DB | Trx, userId: number) {
  const rows = await executor
    .selectFrom('ledger_account')
    .select(['currency', 'balance_minor'])
    .where('kind', '=', 'freelancer_available')
    .where('owner', '=', `user:${userId}`)
    .orderBy('currency')
    .execute()
  return rows.map((r) => ({ currency: r.currency, availableMinor: -Number(r.balance_minor) }))
}

/** GET Payment/payouts: the minimum, what can be withdrawn, and the caller's payouts, newest first. */
export async function listPayouts({ db, minimumMinor }: PayoutDeps, caller: Caller) {
  const [balances, rows] = await Promise.all([
    availableMoney(db, caller.userId),
    db
      .selectFrom('payout')
      .select(columns)
      .where('user_id', '=', caller.userId)
      .orderBy('id', 'desc')
      .limit(100)
      .execute(),
  ])
  return { minimumMinor, balances, data: rows.map(presentPayout) }
}

/** The payout recorded and its money moved from available to in flight, under the available account's lock. */
async function moveInFlight(
  { dialect, gateway, minimumMinor }: PayoutDeps,
  trx: Trx,
  caller: Caller,
  input: PayoutInput,
) {
  const method = await trx
    .selectFrom('payment_method')
    .selectAll()
    .where('id', '=', input.paymentMethodId)
    .where('user_id', '=', caller.userId)
    .where('status', '=', 'active')
    .executeTakeFirst()
  if (!method) throw badRequest('paymentMethodId', 'must be one of your active payment methods')
  // A connected account is paid only once its gateway says so, and only through that gateway (decision 333).
  if (
    method.kind === 'stripe_account' &&
    (method.payouts_enabled !== 1 || method.account_gateway !== gateway.name)
  )
    throw new ApiError(
      409,
      'Conflict',
      'Payouts to this account are not enabled yet: finish setting it up on Payment Details',
      undefined,
      'payouts_not_enabled',
    )
  if (input.amountMinor < minimumMinor)
    throw badRequest('amountMinor', `must be at least ${minimumMinor} minor units (the payout minimum)`)
  // The available account's row is held until commit (PostgreSQL: FOR UPDATE; SQLite: the
  // transaction's write lock), so the balance read here is the one the posting spends.
  let q = trx
    .selectFrom('ledger_account')
    .select(['balance_minor'])
    .where('kind', '=', 'freelancer_available')
    .where('owner', '=', `user:${caller.userId}`)
    .where('currency', '=', input.currency)
  if (dialect === 'postgres') q = q.forUpdate()
  const row = await q.executeTakeFirst()
  const availableMinor = -Number(row?.balance_minor ?? 0)
  if (input.amountMinor > availableMinor)
    throw badRequest(
      'amountMinor',
      `must be at most what is available, ${availableMinor} minor units of ${input.currency}`,
    )
  const now = nowIso()
  const destination = paymentDestination(method)
  const payout = await trx
    .insertInto('payout')
    .values({
      user_id: caller.userId,
      payment_method_id: method.id,
      destination_kind: method.kind,
      destination_masked: destination.masked,
      gateway: gateway.name,
      gateway_ref: null,
      status: 'requested',
      amount_minor: input.amountMinor,
      currency: input.currency,
      failure: null,
      created_at: now,
      updated_at: now,
    })
    .returning(columns)
    .executeTakeFirstOrThrow()
  await post(trx, dialect, {
    kind: 'payout',
    ref: payoutRef(payout.id),
    lines: [
      { account: account.available(caller.userId, input.currency), amountMinor: input.amountMinor },
      { account: account.inFlight(caller.userId, input.currency), amountMinor: -input.amountMinor },
    ],
  })
  return { payout, destination: { kind: method.kind, ref: destination.ref } }
}

/** POST Payment/payouts: checks everything, moves the money in flight, then asks the gateway. */
export async function requestPayout(deps: PayoutDeps, caller: Caller, input: PayoutInput) {
  const { db, dialect, gateway, log } = deps
  const created = await db.transaction().execute((trx) => moveInFlight(deps, trx, caller, input))
  let result: GatewayMoneyResult
  try {
    result = await gateway.payout({
      payoutId: String(created.payout.id),
      amountMinor: Number(created.payout.amount_minor),
      currency: created.payout.currency,
      destination: created.destination,
    })
  } catch (error) {
    // No answer: the money stays in flight and the payout requested until the gateway's event
    // (or a retry by the operator) settles it; nothing is lost and nothing is paid twice.
    log?.(`payout ${created.payout.id}: the gateway did not answer`, error)
    return presentPayout(created.payout)
  }
  await db.transaction().execute((trx) => settlePayout(trx, dialect, created.payout.id, result))
  return presentPayout(
    (await db
      .selectFrom('payout')
      .select(columns)
      .where('id', '=', created.payout.id)
      .executeTakeFirstOrThrow()) as PayoutRow,
  )
}
