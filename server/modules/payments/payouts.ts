import type { DB } from '../../db/database.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import type { Caller } from '../../api/handler.ts'
import { ApiError } from '../../api/errors.ts'
import { enqueue } from '../../jobs/outbox.ts'
import { paymentDestination } from '../profiles/rules.ts'
import { account, post, type Trx } from './ledger.ts'
import type { Gateway, GatewayEvent, GatewayMoneyResult } from './gateways/gateway.ts'
import type { PayoutInput } from './contract.ts'
import type { PayoutStatus } from './states.ts'

// Payouts (issue 17 item 6, decisions 185–187): a freelancer withdraws available money to one of
// their active payment methods. Asking moves the amount from available to payout_in_flight in one
// balanced transaction, under the available account's lock (the running balance is read and
// spent in the same transaction, so two payouts at once can never overdraw). The gateway then
// pays (in flight → gateway clearing) or refuses (a reversing transaction returns the money to
// available). The sandbox answers at once; a gateway that answers later sends payout.succeeded or
// payout.failed events, applied through the same settle step, once.

export const PAYMENTS_NOTIFY_TOPIC = 'payments.notify'

const badRequest = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })
const nowIso = () => new Date().toISOString()
const digits = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
/** An amount as notification texts show it (the same in every language: 1250.00 EUR). */
const amountText = (minor: number, currency: string) =>
  `${(minor / 10 ** digits(currency)).toFixed(digits(currency))} ${currency}`

export type PayoutRow = {
  id: number
  user_id: number
  payment_method_id: number | null
  status: string
  amount_minor: number
  currency: string
  gateway: string
  destination_kind: string
  destination_masked: string
  failure: string | null
  created_at: string
  updated_at: string
}
const present = (p: PayoutRow) => ({
  id: p.id,
  status: p.status as PayoutStatus,
  amountMinor: Number(p.amount_minor),
  currency: p.currency,
  destinationKind: p.destination_kind as 'bank' | 'paypal',
  destination: p.destination_masked,
  failure: p.failure,
  createdAt: new Date(p.created_at).toISOString(),
  updatedAt: new Date(p.updated_at).toISOString(),
})
const columns = [
  'id',
  'user_id',
  'payment_method_id',
  'status',
  'amount_minor',
  'currency',
  'gateway',
  'destination_kind',
  'destination_masked',
  'failure',
  'created_at',
  'updated_at',
] as const

export function createPayouts({
  db,
  dialect,
  gateway,
  minimumMinor,
  log,
}: {
  db: DB
  dialect: Dialect
  gateway: Gateway
  minimumMinor: number
  log?: (message: string, error: unknown) => void
}) {
  /** The caller's available money per currency (the running balance, which always equals its entries' sum). */
  async function available(executor: DB | Trx, userId: number) {
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
  async function list(caller: Caller) {
    const [balances, rows] = await Promise.all([
      available(db, caller.userId),
      db
        .selectFrom('payout')
        .select(columns)
        .where('user_id', '=', caller.userId)
        .orderBy('id', 'desc')
        .limit(100)
        .execute(),
    ])
    return { minimumMinor, balances, data: rows.map(present) }
  }

  /** POST Payment/payouts: checks everything, moves the money in flight, then asks the gateway. */
  async function request(caller: Caller, input: PayoutInput) {
    const created = await db.transaction().execute(async (trx) => {
      const method = await trx
        .selectFrom('payment_method')
        .selectAll()
        .where('id', '=', input.paymentMethodId)
        .where('user_id', '=', caller.userId)
        .where('status', '=', 'active')
        .executeTakeFirst()
      if (!method) throw badRequest('paymentMethodId', 'must be one of your active payment methods')
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
        ref: `payout:${payout.id}`,
        lines: [
          { account: account.available(caller.userId, input.currency), amountMinor: input.amountMinor },
          { account: account.inFlight(caller.userId, input.currency), amountMinor: -input.amountMinor },
        ],
      })
      return { payout, destination: { kind: method.kind, ref: destination.ref } }
    })
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
      return present(created.payout)
    }
    await db.transaction().execute((trx) => settle(trx, created.payout.id, result))
    return present(
      (await db
        .selectFrom('payout')
        .select(columns)
        .where('id', '=', created.payout.id)
        .executeTakeFirstOrThrow()) as PayoutRow,
    )
  }

  /**
   * The gateway's answer, applied once: a payout still requested becomes paid (in flight →
   * clearing) or failed (a reversal returns the money to available); any later answer changes
   * nothing. Answers whether it changed something.
   */
  async function settle(
    trx: Trx,
    payoutId: number,
    result: GatewayMoneyResult,
    settled?: (trx: Trx, status: PayoutStatus) => Promise<void>,
  ) {
    if (result.status === 'pending') {
      await trx
        .updateTable('payout')
        .set({ gateway_ref: result.gatewayRef, updated_at: nowIso() })
        .where('id', '=', payoutId)
        .where('status', '=', 'requested')
        .execute()
      return false
    }
    let q = trx.selectFrom('payout').select(columns).where('id', '=', payoutId)
    if (dialect === 'postgres') q = q.forUpdate()
    const p = (await q.executeTakeFirst()) as PayoutRow | undefined
    if (!p || p.status !== 'requested') return false
    const amount = Number(p.amount_minor)
    const sent = await trx
      .selectFrom('ledger_transaction')
      .select('id')
      .where('ref', '=', `payout:${p.id}`)
      .executeTakeFirstOrThrow()
    if (result.status === 'succeeded') {
      await post(trx, dialect, {
        kind: 'payout_paid',
        ref: `payout-paid:${p.id}`,
        lines: [
          { account: account.inFlight(p.user_id, p.currency), amountMinor: amount },
          { account: account.clearing(p.gateway, p.currency), amountMinor: -amount },
        ],
      })
    } else {
      await post(trx, dialect, {
        kind: 'reversal',
        ref: `payout-failed:${p.id}`,
        reversesId: sent.id,
        memo: result.failure ?? 'failed',
        lines: [
          { account: account.inFlight(p.user_id, p.currency), amountMinor: amount },
          { account: account.available(p.user_id, p.currency), amountMinor: -amount },
        ],
      })
    }
    const status: PayoutStatus = result.status === 'succeeded' ? 'paid' : 'failed'
    await trx
      .updateTable('payout')
      .set({
        status,
        gateway_ref: result.gatewayRef,
        failure: status === 'failed' ? (result.failure ?? 'failed') : null,
        updated_at: nowIso(),
      })
      .where('id', '=', p.id)
      .execute()
    await enqueue(trx, PAYMENTS_NOTIFY_TOPIC, {
      userIds: [p.user_id],
      kind: status === 'paid' ? 'payoutPaid' : 'payoutFailed',
      params: { amount: amountText(amount, p.currency), destination: p.destination_masked },
    })
    await settled?.(trx, status)
    return true
  }

  /**
   * Payouts still `requested` since before `olderThan`: their gateway answer was lost (a crash
   * between the answer and our commit, a timeout) or never asked for.
   */
  const stuck = (olderThan: string) =>
    db
      .selectFrom('payout')
      .select(columns)
      .where('status', '=', 'requested')
      .where('updated_at', '<', olderThan)
      .orderBy('id')
      .limit(200)
      .execute() as Promise<PayoutRow[]>

  /**
   * Reconciliation (issue 17's gap, decision 250): asks the gateway what became of one payout, by
   * our payout id, and settles it through `settle`, so it changes once however many instances or
   * admins ask at the same moment. A payout the gateway never received is asked for now (the same
   * id: the gateway's idempotency key). No answer leaves it as it was, for the next run.
   * `settled` runs in the settling transaction (the admin's audit row). Answers the new state or null.
   */
  async function reconcile(
    p: PayoutRow,
    settled?: (trx: Trx, status: PayoutStatus) => Promise<void>,
  ): Promise<PayoutStatus | null> {
    let result = gateway.findPayout ? await gateway.findPayout(String(p.id)) : null
    if (!result) {
      const method = p.payment_method_id
        ? await db
            .selectFrom('payment_method')
            .selectAll()
            .where('id', '=', p.payment_method_id)
            .executeTakeFirst()
        : undefined
      // A method removed since is not paid to: no gateway has it, so the money goes back.
      result = method
        ? await gateway.payout({
            payoutId: String(p.id),
            amountMinor: Number(p.amount_minor),
            currency: p.currency,
            destination: { kind: method.kind, ref: paymentDestination(method).ref },
          })
        : { status: 'failed', gatewayRef: '', failure: 'destination_removed' }
    }
    if (result.status === 'pending') return null
    let status: PayoutStatus | null = null
    await db.transaction().execute((trx) =>
      settle(trx, p.id, result, async (t, s) => {
        status = s
        await settled?.(t, s)
      }),
    )
    return status
  }

  /**
   * The periodic sweep: every payout requested more than `minutes` ago is reconciled. Safe on many
   * instances at once (settle locks the payout and changes only a requested one; the ledger refs
   * are unique). Answers how many were settled.
   */
  async function sweep(now = new Date(), minutes = 10) {
    let settled = 0
    for (const p of await stuck(new Date(now.getTime() - minutes * 60_000).toISOString())) {
      try {
        if (await reconcile(p)) settled++
      } catch (error) {
        log?.(`payout ${p.id}: reconciliation could not reach the gateway`, error)
      }
    }
    return { settled }
  }

  /** A gateway's payout event (its paymentToken is our payout id), from Payment/PaymentCallback's transaction. */
  async function applyEvent(trx: Trx, gatewayName: string, event: GatewayEvent) {
    const id = Number(event.paymentToken)
    if (!Number.isSafeInteger(id)) return false
    const p = await trx
      .selectFrom('payout')
      .select(['amount_minor', 'currency', 'gateway'])
      .where('id', '=', id)
      .executeTakeFirst()
    if (!p || p.gateway !== gatewayName) return false
    if (event.amountMinor !== Number(p.amount_minor) || event.currency !== p.currency)
      throw badRequest('amountMinor', `must be the payout's amount, ${p.amount_minor} ${p.currency}`)
    return settle(trx, id, {
      status: event.type === 'payout.succeeded' ? 'succeeded' : 'failed',
      gatewayRef: event.id,
      failure: event.failure,
    })
  }

  return { list, request, settle, applyEvent, available, stuck, reconcile, sweep }
}
export type Payouts = ReturnType<typeof createPayouts>
