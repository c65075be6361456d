import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import type { ProjectsService } from '../projects/service.ts'
import { feeOf, type Fees } from './fees.ts'

// The contract's cost and paid details (docs/product.md §7), for its client and its freelancer only. Prices
// come from the contract and the fees; what was paid, is held and was released comes from the
// ledger's entries of the contract, never from a stored total.
type Contract = NonNullable<Awaited<ReturnType<ProjectsService['contractForPayment']>>>

/** What was paid for each installment, the ledger's sums of the contract, and the refunds not reversed. */
async function readMoney(db: DB, contract: Contract) {
  const ids = contract.installments.map((i) => i.id)
  const [applied, moved, asked] = await Promise.all([
    ids.length
      ? db
          .selectFrom('payment_installment')
          .select(['installment_id', 'amount_minor', 'fee_minor'])
          .where('installment_id', 'in', ids)
          .where('applied', '=', 1)
          .execute()
      : [],
    db
      .selectFrom('ledger_entry as e')
      .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
      .innerJoin('ledger_transaction as t', 't.id', 'e.transaction_id')
      .select([
        'a.kind',
        't.kind as movement',
        't.installment_id',
        (eb) => eb.fn.sum<number>('e.amount_minor').as('sum'),
      ])
      .where('t.contract_id', '=', contract.id)
      .groupBy(['a.kind', 't.kind', 't.installment_id'])
      .execute(),
    // The part of each installment's price given back by refunds that were not reversed (decision 180).
    ids.length
      ? db
          .selectFrom('refund_request')
          .select(['installment_id', 'amount_minor'])
          .where('installment_id', 'in', ids)
          .where('status', 'in', ['accepted', 'decided'])
          .where('gateway_status', 'in', ['pending', 'succeeded'])
          .execute()
      : [],
  ])
  /** What the ledger owes an account kind on this contract (credits), optionally for one installment. */
  const owed = (kind: string, installmentId?: number, movement?: string) =>
    -moved
      .filter(
        (m) =>
          m.kind === kind &&
          (installmentId === undefined || m.installment_id === installmentId) &&
          (!movement || m.movement === movement),
      )
      .reduce((s, m) => s + Number(m.sum), 0)
  return { applied, asked, owed }
}

/** The contract's cost and what was paid, held, released and refunded, per installment and in all. */
async function describe(db: DB, fees: Fees, contract: Contract, projectId: number) {
  const { applied, asked, owed } = await readMoney(db, contract)
  const installments = contract.installments.map((i) => {
    const paid = applied.find((a) => a.installment_id === i.id)
    const released = owed('freelancer_available', i.id)
    const refundedPrice = asked
      .filter((r) => r.installment_id === i.id)
      .reduce((sum, r) => sum + r.amount_minor, 0)
    return {
      installmentId: i.id,
      position: i.position,
      title: i.title,
      status: i.status,
      amountMinor: i.amount_minor,
      clientFeeMinor: paid ? paid.fee_minor : feeOf(i.amount_minor, fees.clientBps),
      platformFeeMinor: released
        ? i.amount_minor - refundedPrice - released
        : feeOf(i.amount_minor, fees.platformBps),
      paidMinor: paid ? paid.amount_minor + paid.fee_minor : 0,
      releasedMinor: released,
      refundedMinor: owed('gateway_clearing', i.id, 'refund') + owed('gateway_clearing', i.id, 'reversal'),
    }
  })
  return {
    projectId,
    contractId: contract.id,
    currency: contract.currency,
    installments,
    amountMinor: installments.reduce((s, i) => s + i.amountMinor, 0),
    paidMinor: owed('client_held', undefined, 'capture'),
    heldMinor: owed('client_held'),
    releasedMinor: owed('freelancer_available'),
    platformFeesMinor: owed('platform_fees'),
    refundedMinor: installments.reduce((sum, i) => sum + i.refundedMinor, 0),
    clientFeePercent: fees.clientBps / 100,
    platformFeePercent: fees.platformBps / 100,
  }
}

export function createPaymentDetails({
  db,
  fees,
  work,
}: {
  db: DB
  fees: Fees
  work: Pick<ProjectsService, 'contractForPayment'>
}) {
  async function details(caller: Caller, projectId: number) {
    const contract = await db.transaction().execute((trx) => work.contractForPayment(trx, projectId))
    if (!contract || (contract.clientId !== caller.userId && contract.freelancerId !== caller.userId))
      throw notFound('Contract')
    return describe(db, fees, contract, projectId)
  }
  return { cost: details, paid: details }
}
export type PaymentDetails = ReturnType<typeof createPaymentDetails>
