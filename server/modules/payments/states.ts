// A payout's states (decision 185): asked for (the money in flight), paid by the gateway, or failed
// (the money back in available). Plain data, so the pages' status chips can import it.
export const payoutStates = ['requested', 'paid', 'failed'] as const
export type PayoutStatus = (typeof payoutStates)[number]
