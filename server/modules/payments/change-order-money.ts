import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Trx } from './ledger.ts'
import type { Gateway } from './gateways/gateway.ts'
import { moveBack, sendBack } from './refund-money.ts'
import { activeRefund, heldFor, nowIso } from './refund-rows.ts'

// The payments' side of a change order (issue 40 item 2, decision 319): what is held for an
// installment a change order touches, and the refund of the part of it a reduction gives back.
// The refund is an accepted refund request (it needs no answer: the change order was agreed)
// that goes through the refunds' own money path, so the ledger, the statement and the refund list
// show it like any other refund.

/** How a change order finds an installment's money: held (the price left), or busy moving. */
export type InstallmentMoney = {
  heldMinor: number | null
  busy: 'refund_open' | 'payment_under_way' | null
}

export interface ChangeOrderMoney {
  of(trx: Trx, installmentId: number): Promise<InstallmentMoney>
  /** Checkouts of an installment whose amount changes are abandoned, as a new checkout abandons them. */
  abandonCheckouts(trx: Trx, installmentId: number): Promise<void>
  giveBack(
    trx: Trx,
    r: {
      installmentId: number
      contractId: number
      projectId: number
      clientId: number
      freelancerId: number
      priceMinor: number
      reason: string
    },
  ): Promise<number>
  /** After commit: the gateway is asked to send the refund back to the card. */
  sendBack(requestId: number): Promise<unknown>
}

export function createChangeOrderMoney(deps: {
  db: DB
  dialect: Dialect
  gateways: Record<string, Gateway>
}): ChangeOrderMoney {
  const { dialect } = deps
  return {
    async of(trx, installmentId) {
      const held = await heldFor(trx, installmentId)
      if (await activeRefund(trx, installmentId))
        return { heldMinor: held?.priceLeft ?? null, busy: 'refund_open' }
      // A checkout at the gateway's second step (3-D Secure) may still be paid for the old amount.
      const acting = await trx
        .selectFrom('payment_installment as pi')
        .innerJoin('payment as p', 'p.id', 'pi.payment_id')
        .select('p.id')
        .where('pi.installment_id', '=', installmentId)
        .where('p.status', '=', 'requires_action')
        .executeTakeFirst()
      return { heldMinor: held?.priceLeft ?? null, busy: acting ? 'payment_under_way' : null }
    },
    async abandonCheckouts(trx, installmentId) {
      const open = trx
        .selectFrom('payment_installment')
        .select('payment_id')
        .where('installment_id', '=', installmentId)
      await trx
        .updateTable('payment')
        .set({ status: 'cancelled', updated_at: nowIso() })
        .where('id', 'in', open)
        .where('status', 'in', ['open', 'failed'])
        .execute()
    },
    async giveBack(trx, r) {
      const held = await heldFor(trx, r.installmentId)
      if (!held) throw new Error(`nothing is held for installment ${r.installmentId}`)
      const now = nowIso()
      const row = await trx
        .insertInto('refund_request')
        .values({
          installment_id: r.installmentId,
          active_installment_id: null,
          contract_id: r.contractId,
          project_id: r.projectId,
          payment_id: held.payment_id,
          client_id: r.clientId,
          freelancer_id: r.freelancerId,
          status: 'accepted',
          amount_minor: r.priceMinor,
          currency: held.currency,
          reason: r.reason,
          respond_by: now,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      await moveBack(trx, dialect, row, r.priceMinor)
      return row.id
    },
    sendBack: (requestId) => sendBack(deps, requestId),
  }
}
