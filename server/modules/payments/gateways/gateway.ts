// What the payments service needs from a gateway (decisions 171 and 195). The built-in sandbox and
// Stripe (Checkout for startCheckout, webhooks for verify, refunds, transfers for payouts) sit
// behind the same interface.

export const gatewayEventTypes = [
  'payment.succeeded',
  'payment.failed',
  'payment.requires_action',
  'refund.succeeded',
  'refund.failed',
  'payout.succeeded',
  'payout.failed',
  'account.updated',
] as const
export type GatewayEventType = (typeof gatewayEventTypes)[number]

/** A verified callback: the gateway's event id (deduplicated), and the payment it is about. */
export interface GatewayEvent {
  id: string
  type: GatewayEventType
  /** our payment's token, as the gateway was given it at checkout; for refund and payout events, our refund or payout id */
  paymentToken: string
  amountMinor: number
  currency: string
  failure?: string
  /** account.updated (its paymentToken is the connected account's id): what the gateway now reports */
  detailsSubmitted?: boolean
  payoutsEnabled?: boolean
  /** a payment the client's saved card paid without them: a failure asks them to pay at the checkout */
  offSession?: boolean
  /** the card a checkout paid with, saved for charges without the client (Stripe; decision 334) */
  savedMethod?: { customerRef: string; methodRef: string; label: string }
}

/** The currency of an event that moves no money (ISO 4217's "no currency"). */
export const NO_CURRENCY = 'XXX'

/** A connected account to open for a freelancer, once (decision 333). */
export interface ConnectedAccountRequest {
  userId: number
  email: string
}
/** Where the freelancer's browser goes next (the gateway's hosted onboarding), and where it comes back. */
export interface OnboardingLinkRequest {
  accountRef: string
  /** site paths: back when done or given up, and when the link has expired */
  returnPath: string
  refreshPath: string
}

export interface CheckoutPayment {
  token: string
  totalMinor: number
  currency: string
  /** what is paid for, as the gateway's page shows it */
  description?: string
  /** the site path the browser comes back to after paying or giving up (a page of the contract) */
  returnPath?: string
  /** the client's customer at the gateway: the card that pays is saved under it for charges without them */
  saveForCustomer?: string
}

export interface GatewayRefundRequest {
  refundId: string
  paymentToken: string
  gatewayRef: string
  amountMinor: number
  currency: string
}
export interface GatewayPayoutRequest {
  payoutId: string
  amountMinor: number
  currency: string
  destination: { kind: 'bank' | 'paypal' | 'stripe_account'; ref: string }
}
/** 'pending' = the final answer comes later as a verified callback/webhook event. */
export interface GatewayMoneyResult {
  status: 'succeeded' | 'pending' | 'failed'
  gatewayRef: string
  failure?: string
}

/** A charge of a payment method the client saved with the gateway, made without them (an approved timesheet week). */
export interface SavedCharge {
  token: string
  totalMinor: number
  currency: string
  description?: string
  customerRef: string | null
  methodRef: string
}
/** The answer to a saved charge; a gateway that answers at once also hands its signed event, applied like a callback. */
export type SavedChargeResult = GatewayMoneyResult & {
  event?: { body: string; headers: Record<string, string> }
}

export interface Gateway {
  readonly name: string
  /**
   * Charges a saved payment method off-session (decision 324): 'succeeded' or 'failed' now, or
   * 'pending' when the answer comes as an event. A gateway without it has the client pay at checkout.
   */
  chargeSaved?(charge: SavedCharge): Promise<SavedChargeResult>
  /**
   * Creates the client's customer, under which a checkout saves the card (Stripe); a gateway without
   * customers (the sandbox) saves the card its own way. Called once per client: the answer is kept.
   */
  createCustomer?(client: { clientId: number; email: string; name: string }): Promise<string>
  /** Deletes a customer and the cards saved under it, when its client's account is erased; one already gone is done. */
  deleteCustomer?(customerRef: string): Promise<void>
  /** Where the client's browser goes to pay: a page of the gateway's (the sandbox's is ours). */
  startCheckout(payment: CheckoutPayment): Promise<{ redirectUrl: string; gatewayRef: string }>
  /**
   * Reads a callback's event after checking its signature; throws when it is not the gateway's.
   * Answers null for an authentic event that means nothing to Workneer (acknowledged, not applied).
   */
  verify(rawBody: string, headers: Headers): Promise<GatewayEvent | null>
  /** Sends money back through the gateway that took it (all or part of one captured payment). */
  refund(request: GatewayRefundRequest): Promise<GatewayMoneyResult>
  /** Pays a freelancer out to a payment method (sandbox: at once; Stripe: a transfer). */
  payout(request: GatewayPayoutRequest): Promise<GatewayMoneyResult>
  /**
   * What became of a payout asked for earlier, by our payout id (reconciliation after a crash
   * between the gateway's answer and our commit): its result, or null when the gateway never
   * received it. A gateway without a lookup is asked again by `payout` with the same id, which
   * must then be idempotent (the sandbox is: it holds no state and answers the same every time).
   */
  findPayout?(payoutId: string): Promise<GatewayMoneyResult | null>
  /** Opens a connected account for a freelancer (Stripe: an Express account), its id answered. */
  createAccount?(request: ConnectedAccountRequest): Promise<{ accountRef: string }>
  /** The gateway's hosted onboarding page for an account (Stripe: an Account Link; the sandbox: its own page). */
  onboardingLink?(request: OnboardingLinkRequest): Promise<{ url: string }>
}

export interface GatewayPayoutRequest {
  payoutId: string
  amountMinor: number
  currency: string
  destination: { kind: 'bank' | 'paypal' | 'stripe_account'; ref: string }
}
/** 'pending' = the final answer comes later as a verified callback/webhook event. */
export interface GatewayMoneyResult {
  status: 'succeeded' | 'pending' | 'failed'
  gatewayRef: string
  failure?: string
}
