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
