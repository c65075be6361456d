import type { z } from 'zod'
import type { Selectable } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError, forbidden, notFound } from '#server/api/errors.ts'
import type { PaymentMethod, paymentBodies } from './contract.ts'
import { limits, normalizeIban, paymentDestination } from './rules.ts'
import { requireFreelancer } from './access.ts'
import { fieldError, nowIso, type Trx } from './shared.ts'

// Where a freelancer is paid: bank accounts, PayPal addresses and the connected account the payment
// gateway opened for them (payments/payout-accounts.ts, decision 333: never typed in, never
// removed). Only their owner sees them, masked; exactly one active method is the default whenever
// there is one.

type PaymentRow = Selectable<Database['payment_method']>
type PaymentBody<K extends keyof typeof paymentBodies> = z.output<(typeof paymentBodies)[K]>

const toPayment = (r: PaymentRow): PaymentMethod => ({
  id: r.id,
  kind: r.kind,
  holderName: r.holder_name,
  masked: paymentDestination(r).masked,
  bic: r.bic,
  bankName: r.bank_name,
  isDefault: r.is_default === 1,
  status: r.status,
  payoutsEnabled: r.kind !== 'stripe_account' || r.payouts_enabled === 1,
  createdAt: r.created_at,
})

const paymentRows = (trx: Trx, userId: number) =>
  trx
    .selectFrom('payment_method')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('id', 'desc')
    .execute() as Promise<PaymentRow[]>

/** Makes exactly one active method the default: `preferred` if it is active, else the current one, else the newest. */
async function settleDefault(trx: Trx, userId: number, preferred?: number) {
  const rows = await trx
    .selectFrom('payment_method')
    .select(['id', 'is_default', 'status'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute()
  const active = rows.filter((r) => r.status === 'active')
  const chosen =
    (preferred && active.find((r) => r.id === preferred)) ||
    active.find((r) => r.is_default === 1) ||
    active[0]
  await trx
    .updateTable('payment_method')
    .set({ is_default: 0 })
    .where('user_id', '=', userId)
    .where('id', '!=', chosen?.id ?? 0)
    .execute()
  if (chosen)
    await trx.updateTable('payment_method').set({ is_default: 1 }).where('id', '=', chosen.id).execute()
}

/** One of the caller's methods; another user's answers 404. */
async function ownPayment(trx: Trx, caller: Caller, id: number) {
  requireFreelancer(caller)
  const row = (await trx
    .selectFrom('payment_method')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', caller.userId)
    .executeTakeFirst()) as PaymentRow | undefined
  if (!row) throw notFound('Payment method')
  return row
}

async function addPayment(db: DB, caller: Caller, body: PaymentBody<'add'>) {
  requireFreelancer(caller)
  const id = await db.transaction().execute(async (trx) => {
    const count = await trx
      .selectFrom('payment_method')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', caller.userId)
      .executeTakeFirstOrThrow()
    if (Number(count.n) >= limits.paymentMethods)
      throw fieldError('kind', `may list at most ${limits.paymentMethods} payment methods`)
    const now = nowIso()
    const row = await trx
      .insertInto('payment_method')
      .values({
        user_id: caller.userId,
        kind: body.kind,
        holder_name: body.holderName,
        iban: body.kind === 'bank' ? normalizeIban(body.iban) : null,
        bic: body.kind === 'bank' ? (body.bic ?? null) : null,
        bank_name: body.kind === 'bank' ? (body.bankName ?? null) : null,
        email: body.kind === 'paypal' ? body.email : null,
        stripe_account: null,
        is_default: 0,
        status: 'active',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await settleDefault(trx, caller.userId, body.makeDefault ? row.id : undefined)
    return row.id
  })
  return toPayment(await ownPayment(db, caller, id))
}

/** The columns an update sets for a method of this kind; a field of another kind is refused. */
function updatedValues(row: PaymentRow, body: PaymentBody<'update'>) {
  if (row.kind !== 'paypal' && body.email)
    throw fieldError('email', 'does not apply to a bank account or payout account')
  if (row.kind !== 'bank' && (body.iban || body.bic || body.bankName))
    throw fieldError('iban', 'does not apply to a PayPal address or payout account')
  if (row.kind === 'bank')
    return {
      holder_name: body.holderName,
      ...(body.iban ? { iban: normalizeIban(body.iban) } : {}),
      bic: body.bic ?? null,
      bank_name: body.bankName ?? null,
    }
  // A connected account's id is the gateway's: only the name shown beside it changes.
  if (row.kind === 'stripe_account') return { holder_name: body.holderName }
  return { holder_name: body.holderName, ...(body.email ? { email: body.email } : {}) }
}

async function updatePayment(db: DB, caller: Caller, id: number, body: PaymentBody<'update'>) {
  await db.transaction().execute(async (trx) => {
    const values = updatedValues(await ownPayment(trx, caller, id), body)
    await trx
      .updateTable('payment_method')
      .set({ ...values, updated_at: nowIso() })
      .where('id', '=', id)
      .where('user_id', '=', caller.userId)
      .execute()
  })
  return toPayment(await ownPayment(db, caller, id))
}

/** Turns a method on or off, or makes it the default (which turns it on). */
async function setPaymentStatus(db: DB, caller: Caller, id: number, body: PaymentBody<'status'>) {
  if (!body.status && !body.isDefault) throw fieldError('status', 'is required (or isDefault)')
  if (body.status === 'inactive' && body.isDefault)
    throw fieldError('isDefault', 'an inactive method cannot be the default')
  await db.transaction().execute(async (trx) => {
    await ownPayment(trx, caller, id)
    const status = body.status ?? (body.isDefault ? 'active' : undefined)
    if (status)
      await trx
        .updateTable('payment_method')
        .set({ status, updated_at: nowIso() })
        .where('id', '=', id)
        .execute()
    if (status === 'inactive')
      await trx.updateTable('payment_method').set({ is_default: 0 }).where('id', '=', id).execute()
    await settleDefault(trx, caller.userId, body.isDefault ? id : undefined)
  })
  return { data: (await paymentRows(db, caller.userId)).map(toPayment) }
}

export function paymentMethods(db: DB) {
  return {
    async list(caller: Caller, freelancerId: number) {
      requireFreelancer(caller)
      if (freelancerId !== caller.userId) throw forbidden()
      return { data: (await paymentRows(db, caller.userId)).map(toPayment) }
    },
    add: (caller: Caller, body: PaymentBody<'add'>) => addPayment(db, caller, body),
    update: (caller: Caller, id: number, body: PaymentBody<'update'>) => updatePayment(db, caller, id, body),
    setStatus: (caller: Caller, id: number, body: PaymentBody<'status'>) =>
      setPaymentStatus(db, caller, id, body),
    async remove(caller: Caller, id: number) {
      await db.transaction().execute(async (trx) => {
        // The gateway opened it once for this person; it is switched off, not removed (decision 333).
        if ((await ownPayment(trx, caller, id)).kind === 'stripe_account')
          throw new ApiError(
            409,
            'Conflict',
            'A payout account opened by the payment gateway stays; switch it off instead',
            undefined,
            'payout_account_kept',
          )
        await trx
          .deleteFrom('payment_method')
          .where('id', '=', id)
          .where('user_id', '=', caller.userId)
          .execute()
        await settleDefault(trx, caller.userId)
      })
      return { message: 'Payment method removed' }
    },
  }
}
