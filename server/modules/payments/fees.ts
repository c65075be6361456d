// Fees are whole minor units: a percentage kept in basis points, rounded half up (decision 170).
export interface Fees {
  /** the platform's share of a released installment, taken from the freelancer's side */
  platformBps: number
  /** added to what the client pays at checkout, kept with the held money until release */
  clientBps: number
}

export function feeOf(amountMinor: number, bps: number) {
  return Math.floor((amountMinor * bps + 5_000) / 10_000)
}

/**
 * The client's fee still held for an installment once part of its price was refunded: the fee in
 * proportion to the price left, rounded half up (decision 180). All refunded leaves none; nothing
 * refunded leaves all of it, so the fee a refund returns is `feeLeft(before) − feeLeft(after)`.
 */
export function feeLeft(feeMinor: number, priceMinor: number, refundedMinor: number) {
  if (priceMinor <= 0) return 0
  return Math.floor((feeMinor * (priceMinor - refundedMinor) * 2 + priceMinor) / (2 * priceMinor))
}
