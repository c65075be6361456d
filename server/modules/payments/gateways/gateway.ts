// What the payments service needs from a gateway (decision 171). The built-in sandbox is the one
// gateway today; Stripe comes behind the same interface (Checkout for startCheckout, webhooks for
// verify, refunds and transfers later).

export const gatewayEventTypes = ['payment.succeeded', 'payment.failed', 'payment.requires_action', 'payout.succeeded', 'payout.failed'] as const
export type GatewayEventType = (typeof gatewayEventTypes)[number]

/** A verified callback: the gateway's event id (deduplicated), and the payment it is about. */
export interface GatewayEvent {
  id: string
  type: GatewayEventType
  /** our payment's token, as the gateway was given it at checkout (payout events: our payout's id) */
  paymentToken: string
  amountMinor: number
  currency: string
  failure?: string
}

export interface CheckoutPayment {
  token: string
  totalMinor: number
  currency: string
}

export interface Gateway {
  readonly name: string
  /** Where the client's browser goes to pay: a page of the gateway's (the sandbox's is ours). */
  startCheckout(payment: CheckoutPayment): Promise<{ redirectUrl: string; gatewayRef: string }>
  /** Reads a callback's event after checking its signature; throws when it is not the gateway's. */
  verify(rawBody: string, headers: Headers): Promise<GatewayEvent>
  /** Pays a freelancer out to a payment method (sandbox: at once; Stripe: a transfer). */
  payout(request: GatewayPayoutRequest): Promise<GatewayMoneyResult>
}

export interface GatewayPayoutRequest { payoutId: string; amountMinor: number; currency: string; destination: { kind: 'bank' | 'paypal' | 'stripe_account'; ref: string } }
/** 'pending' = the final answer comes later as a verified callback/webhook event. */
export interface GatewayMoneyResult { status: 'succeeded' | 'pending' | 'failed'; gatewayRef: string; failure?: string }
