import type { Dialect } from '#server/db/migrations/helpers.ts'
import { conflict } from '#server/api/errors.ts'
import type { MoneyMover } from '../projects/service.ts'
import { account, post, type Line, type Trx } from './ledger.ts'
import { feeOf, type Fees } from './fees.ts'
import { issueReleaseInvoices } from './invoices.ts'
import type { PlatformLegal } from './invoice-details.ts'
import { activeRefund, heldFor } from './refund-rows.ts'

// Releasing an installment's money to its freelancer, called by the projects module when the
// client approves (or the auto-release job does) and by a dispute's decision.

type Release = Parameters<MoneyMover['release']>[1]

/** Releasing an installment: its held amount and client fee leave the client's held money; the freelancer gets the amount less the platform fee. */
export async function releaseInstallment(
  trx: Trx,
  dialect: Dialect,
  fees: Fees,
  i: Release,
  platform?: PlatformLegal,
) {
  const paid = await heldFor(trx, i.installmentId)
  if (!paid) throw conflict('The installment was not funded through a payment; nothing is held for it')
  // An open or disputed refund request holds the money until it is answered or decided (decision 181).
  const refund = await activeRefund(trx, i.installmentId)
  if (refund)
    throw conflict(
      `A refund request for this installment is ${refund.status}; it cannot be released until that is settled`,
    )
  // What a partial refund gave back is not released: the price left and its share of the client's fee (decision 180).
  const platformFee = feeOf(paid.priceLeft, fees.platformBps)
  const lines: Line[] = [
    { account: account.held(i.clientId, i.currency), amountMinor: paid.priceLeft + paid.feeLeft },
    {
      account: account.available(i.freelancerId, i.currency),
      amountMinor: -(paid.priceLeft - platformFee),
    },
    { account: account.fees(i.currency), amountMinor: -(paid.feeLeft + platformFee) },
  ].filter((l) => l.amountMinor !== 0)
  if (!lines.length) return
  const posted = await post(trx, dialect, {
    kind: 'release',
    ref: `release:${i.installmentId}`,
    contractId: i.contractId,
    installmentId: i.installmentId,
    paymentId: paid.payment_id,
    lines,
  })
  // The release's invoices are issued in its transaction (decision 190), once: only when it was
  // posted now, for what is released (a partial refund's part is not: decision 180).
  if (posted.posted)
    await issueReleaseInvoices(
      trx,
      {
        ...i,
        transactionId: posted.id,
        amountMinor: paid.priceLeft,
        clientFeeMinor: paid.feeLeft,
        platformFeeMinor: platformFee,
      },
      platform,
    )
}

/** The money mover the projects module releases installments through. */
export function createMoneyMover({
  dialect,
  fees,
  platform,
}: {
  dialect: Dialect
  fees: Fees
  /** the platform's legal details and VAT rate its invoices are issued with (decision 311) */
  platform?: PlatformLegal
}): MoneyMover {
  return { release: (trx, i) => releaseInstallment(trx, dialect, fees, i, platform) }
}
