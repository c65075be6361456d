// A refund request's states (decision 180), plain data for the same reason.
export const refundStatuses = ['open', 'accepted', 'declined', 'disputed', 'decided'] as const
/** The longest reason of a request or a refusal: the refund forms read it in the browser, without zod (issue 38). */
export const refundLimits = { reason: 1000 }

// A payout's states (decision 185): asked for (the money in flight), paid by the gateway, or failed
// (the money back in available). Plain data, so the pages' status chips can import it.
export const payoutStates = ['requested', 'paid', 'failed'] as const
export type PayoutStatus = (typeof payoutStates)[number]
