import type Stripe from 'stripe'
import { ApiError } from '#server/api/errors.ts'
import {
  NO_CURRENCY,
  type ConnectedAccountRequest,
  type OnboardingLinkRequest,
  type CheckoutPayment,
  type Gateway,
  type GatewayEvent,
  type GatewayMoneyResult,
  type GatewayPayoutRequest,
  type GatewayRefundRequest,
} from './gateway.ts'
import { stripeAccountPattern } from '#server/modules/profiles/rules.ts'
import {
  chargeSaved,
  createCustomer,
  deleteCustomer,
  intentEvent,
  savedMethodOf,
  savingCard,
} from './stripe-saved.ts'

// Stripe behind the Gateway interface (decision 195): a Checkout Session for each payment, webhooks
// verified with the package's constructEvent on the exact bytes received, refunds of the payment's
// PaymentIntent, transfers to a freelancer's connected account, and an hourly contract's weeks
// charged off-session to the card its checkout saved (decision 334, stripe-saved.ts; reading the
// saved card is a call to Stripe inside verify, so a failed call fails the webhook, which Stripe
// sends again). Every request that moves money carries an idempotency key derived from our own id,
// so asking twice (a retry after a timeout, two instances) moves money once at Stripe too.
export const STRIPE = 'stripe'
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature'
/** Stripe's own default: a signed webhook older than five minutes is refused (a captured one replayed later). */
export const STRIPE_TOLERANCE_S = 300
/** A Checkout Session is payable for its shortest allowed life; a replaced payment's session soon cannot be paid. */
export const CHECKOUT_LIFETIME_S = 30 * 60

export const refundIdempotencyKey = (refundId: string) => `refund-${refundId}`
export const payoutIdempotencyKey = (payoutId: string) => `payout-${payoutId}`
export const checkoutIdempotencyKey = (token: string) => `checkout-${token}`
export const accountIdempotencyKey = (userId: number) => `connected-account-user-${userId}`

export interface StripeGatewayOptions {
  secretKey: string
  webhookSecret: string
  /** the signing secret of the Connect endpoint (connected accounts' events), when it is another one */
  connectWebhookSecret?: string
  /** the site's origin; Checkout sends the browser back to it */
  publicUrl: string
  /** another API address (a local stand-in in tests): protocol, host and port are taken from it */
  apiUrl?: string
  /** seconds a webhook's signature stays valid */
  tolerance?: number
}

const refused = (why: string) => new ApiError(400, 'Invalid Info', `signature: ${why}`, { signature: [why] })

type StripePackage = typeof Stripe
// The package (about 9 MB of heap, 200 modules) is loaded when Stripe is configured, as decision 136
// does for Redis and SMTP: a server on the sandbox gateway never carries it.
const loadStripe = () => import('stripe').then((m): StripePackage => m.default)

/** Stripe answered that it did not and will not do it (a bad request, a declined or impossible move). */
const definite = (stripe: Stripe, e: unknown): e is Stripe.errors.StripeError =>
  e instanceof stripe.errors.StripeError &&
  (e.statusCode === 400 || e.statusCode === 402 || e.statusCode === 404) &&
  e.type !== 'StripeIdempotencyError'

const upper = (currency: string) => currency.toUpperCase()

/** The PaymentIntent a refused off-session charge created (Stripe names it in the error). */
const paymentIntentOfError = (e: Stripe.errors.StripeError) =>
  (e.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent?.id

function createStripeClient(S: StripePackage, o: Pick<StripeGatewayOptions, 'secretKey' | 'apiUrl'>) {
  const api = o.apiUrl ? new URL(o.apiUrl) : undefined
  return new S(o.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Workneer' },
    ...(api && {
      protocol: api.protocol === 'http:' ? 'http' : 'https',
      host: api.hostname,
      port: api.port || (api.protocol === 'http:' ? 80 : 443),
    }),
  })
}

/**
 * Maps a verified Stripe event to ours, or null when it is not about a Workneer payment, refund or
 * payout (another product on the same account) or is not an answer yet (a pending refund).
 */
export function eventOf(event: Stripe.Event): GatewayEvent | null {
  const ours = (
    token: string | null | undefined,
    type: GatewayEvent['type'],
    amountMinor: number,
    currency: string,
    failure?: string | null,
  ): GatewayEvent | null =>
    token
      ? {
          id: event.id,
          type,
          paymentToken: token,
          amountMinor,
          currency: upper(currency),
          ...(failure ? { failure } : {}),
        }
      : null
  if (event.type === 'account.updated') return accountEvent(event.id, event.data.object)
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const s = event.data.object
      // Completed but unpaid: a delayed method (a bank debit) whose answer comes as async_payment_*.
      if (s.payment_status !== 'paid' || s.amount_total === null || !s.currency) return null
      return ours(
        s.client_reference_id ?? s.metadata?.paymentToken,
        'payment.succeeded',
        s.amount_total,
        s.currency,
      )
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const s = event.data.object
      if (s.amount_total === null || !s.currency) return null
      return ours(
        s.client_reference_id ?? s.metadata?.paymentToken,
        'payment.failed',
        s.amount_total,
        s.currency,
        event.type === 'checkout.session.expired' ? 'checkout_expired' : 'payment_failed',
      )
    }
    case 'payment_intent.payment_failed':
    case 'payment_intent.succeeded':
      return intentEvent(event, ours)
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed': {
      const r = event.data.object
      const status = refundStatus(r.status)
      if (status === 'pending') return null
      return ours(
        r.metadata?.refundId,
        status === 'succeeded' ? 'refund.succeeded' : 'refund.failed',
        r.amount,
        r.currency,
        status === 'failed' ? (r.failure_reason ?? 'refund_failed') : null,
      )
    }
    case 'transfer.created':
    case 'transfer.reversed': {
      const t = event.data.object
      if (event.type === 'transfer.created')
        return ours(t.metadata?.payoutId, 'payout.succeeded', t.amount, t.currency)
      // Only a transfer taken back whole returns the payout; a partial reversal is an admin's case.
      return t.amount_reversed >= t.amount
        ? ours(t.metadata?.payoutId, 'payout.failed', t.amount, t.currency, 'transfer_reversed')
        : null
    }
    default:
      // charge.refunded and the rest: the refund.* events above carry our refund id; nothing else moves our money.
      return null
  }
}

/** A connected account's onboarding moved on (or Stripe asks for more): its id is the event's token. */
function accountEvent(id: string, a: Stripe.Account): GatewayEvent {
  return {
    id,
    type: 'account.updated',
    paymentToken: a.id,
    amountMinor: 0,
    currency: NO_CURRENCY,
    detailsSubmitted: a.details_submitted === true,
    payoutsEnabled: a.payouts_enabled === true,
  }
}

function refundStatus(status: string | null): GatewayMoneyResult['status'] {
  if (status === 'succeeded') return 'succeeded'
  if (status === 'failed' || status === 'canceled') return 'failed'
  return 'pending'
}

/** The PaymentIntent a payment was captured by: ours is the Checkout Session's id, which names it. */
async function paymentIntentOf(stripe: Stripe, gatewayRef: string) {
  if (gatewayRef.startsWith('pi_')) return gatewayRef
  const session = await stripe.checkout.sessions.retrieve(gatewayRef)
  const pi = session.payment_intent
  if (!pi) throw new Error(`Stripe checkout session ${gatewayRef} has no payment to refund`)
  return typeof pi === 'string' ? pi : pi.id
}

/** A refusal Stripe made is the move's answer (failed); anything else (timeout, 5xx, 429, bad key) leaves it unknown: thrown, to be asked again with the same key. */
async function moving(stripe: Stripe, run: () => Promise<GatewayMoneyResult>): Promise<GatewayMoneyResult> {
  try {
    return await run()
  } catch (e) {
    if (definite(stripe, e))
      return { status: 'failed', gatewayRef: e.requestId ?? '', failure: e.code ?? e.type }
    throw e
  }
}

/** A Checkout Session for the payment, once per payment token. */
async function startCheckout(stripe: Stripe, publicUrl: string, payment: CheckoutPayment) {
  const back = `${publicUrl}${payment.returnPath ?? '/'}`
  const saving = savingCard(payment.saveForCustomer)
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'payment',
      client_reference_id: payment.token,
      ...(saving && { customer: saving.customer }),
      metadata: { paymentToken: payment.token, ...saving?.metadata },
      payment_intent_data: { metadata: { paymentToken: payment.token }, ...saving?.payment_intent_data },
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: payment.currency.toLowerCase(),
            unit_amount: payment.totalMinor,
            product_data: { name: payment.description ?? 'Workneer installments' },
          },
        },
      ],
      success_url: back,
      cancel_url: back,
      expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_LIFETIME_S,
    },
    { idempotencyKey: checkoutIdempotencyKey(payment.token) },
  )
  if (!session.url) throw new Error(`Stripe checkout session ${session.id} has no address`)
  return { redirectUrl: session.url, gatewayRef: session.id }
}

/** The event signed with one of the endpoints' secrets; a signature none of them made throws the first one's refusal. */
function constructed(
  stripe: Stripe,
  rawBody: string,
  signature: string,
  secrets: string[],
  tolerance: number,
) {
  let refusal: unknown
  for (const secret of secrets) {
    try {
      return stripe.webhooks.constructEvent(rawBody, signature, secret, tolerance)
    } catch (e) {
      if (!(e instanceof stripe.errors.StripeSignatureVerificationError)) throw e
      refusal ??= e
    }
  }
  throw refusal
}

/**
 * The webhook's event, read with the package's constructEvent on the exact bytes received. Stripe
 * sends connected accounts' events (account.updated, decision 333) from a Connect endpoint with a
 * signing secret of its own, so both endpoints' secrets are tried.
 */
async function verify(
  stripe: Stripe,
  secrets: string[],
  tolerance: number,
  rawBody: string,
  headers: Headers,
) {
  const signature = headers.get(STRIPE_SIGNATURE_HEADER)
  if (!signature) throw refused('is missing or malformed')
  let event: Stripe.Event
  try {
    event = constructed(stripe, rawBody, signature, secrets, tolerance)
  } catch (e) {
    if (e instanceof stripe.errors.StripeSignatureVerificationError)
      throw refused(/timestamp/i.test(e.message) ? 'is too old' : 'does not match')
    throw new ApiError(400, 'Invalid Info', 'body: is not a Stripe event', {
      body: ['is not a Stripe event'],
    })
  }
  const ours = eventOf(event)
  const savedMethod = ours && (await savedMethodOf(stripe, event))
  return ours && savedMethod ? { ...ours, savedMethod } : ours
}

/** A refund of the payment's PaymentIntent, once per refund id. */
function refund(stripe: Stripe, r: GatewayRefundRequest) {
  return moving(stripe, async () => {
    const refund = await stripe.refunds.create(
      {
        payment_intent: await paymentIntentOf(stripe, r.gatewayRef),
        amount: r.amountMinor,
        reason: 'requested_by_customer',
        metadata: { refundId: r.refundId, paymentToken: r.paymentToken },
      },
      { idempotencyKey: refundIdempotencyKey(r.refundId) },
    )
    const status = refundStatus(refund.status)
    return {
      status,
      gatewayRef: refund.id,
      ...(status === 'failed' ? { failure: refund.failure_reason ?? 'refund_failed' } : {}),
    }
  })
}

/** A transfer to the freelancer's connected account, once per payout id. */
function payout(stripe: Stripe, p: GatewayPayoutRequest) {
  return moving(stripe, async () => {
    if (p.destination.kind !== 'stripe_account' || !stripeAccountPattern.test(p.destination.ref))
      return { status: 'failed', gatewayRef: '', failure: 'destination_not_supported' }
    // A transfer lands in the connected account's Stripe balance at once; its bank payout is the account's own schedule.
    const transfer = await stripe.transfers.create(
      {
        amount: p.amountMinor,
        currency: p.currency.toLowerCase(),
        destination: p.destination.ref,
        transfer_group: `payout-${p.payoutId}`,
        metadata: { payoutId: p.payoutId },
      },
      { idempotencyKey: payoutIdempotencyKey(p.payoutId) },
    )
    return { status: 'succeeded', gatewayRef: transfer.id }
  })
}

// Stripe forgets idempotency keys after 24 hours, so reconciliation looks the transfer up by
// its group (our payout id) instead of creating it again; reversed in full is a failed payout.
async function findPayout(stripe: Stripe, payoutId: string): Promise<GatewayMoneyResult | null> {
  const found = await stripe.transfers.list({ transfer_group: `payout-${payoutId}`, limit: 1 })
  const t = found.data[0]
  if (!t) return null
  return t.amount_reversed >= t.amount
    ? { status: 'failed', gatewayRef: t.id, failure: 'transfer_reversed' }
    : { status: 'succeeded', gatewayRef: t.id }
}

/** An Express account for the freelancer, once per user (the key makes a retry answer the same account). */
async function createAccount(stripe: Stripe, r: ConnectedAccountRequest) {
  const account = await stripe.accounts.create(
    {
      type: 'express',
      email: r.email,
      capabilities: { transfers: { requested: true } },
      metadata: { userId: String(r.userId) },
    },
    { idempotencyKey: accountIdempotencyKey(r.userId) },
  )
  return { accountRef: account.id }
}

/** An Account Link: Stripe's hosted onboarding for the account, back to our page when done or expired. */
async function onboardingLink(stripe: Stripe, publicUrl: string, r: OnboardingLinkRequest) {
  const link = await stripe.accountLinks.create({
    account: r.accountRef,
    type: 'account_onboarding',
    return_url: `${publicUrl}${r.returnPath}`,
    refresh_url: `${publicUrl}${r.refreshPath}`,
  })
  return { url: link.url }
}

export function createStripeGateway(o: StripeGatewayOptions) {
  const tolerance = o.tolerance ?? STRIPE_TOLERANCE_S
  const secrets = [o.webhookSecret, ...(o.connectWebhookSecret ? [o.connectWebhookSecret] : [])]
  const client = loadStripe().then((S) => createStripeClient(S, o))
  const gateway: Gateway = {
    name: STRIPE,
    startCheckout: async (payment) => startCheckout(await client, o.publicUrl, payment),
    verify: async (rawBody, headers) => verify(await client, secrets, tolerance, rawBody, headers),
    refund: async (r) => refund(await client, r),
    payout: async (p) => payout(await client, p),
    findPayout: async (payoutId) => findPayout(await client, payoutId),
    createAccount: async (r) => createAccount(await client, r),
    onboardingLink: async (r) => onboardingLink(await client, o.publicUrl, r),
    createCustomer: async (c) => createCustomer(await client, c),
    deleteCustomer: async (ref) => deleteCustomer(await client, ref),
    chargeSaved: async (charge) => {
      const stripe = await client
      return chargeSaved(stripe, charge, (e) =>
        definite(stripe, e)
          ? { failure: e.code ?? e.type, gatewayRef: paymentIntentOfError(e) ?? e.requestId ?? '' }
          : null,
      )
    },
  }
  return gateway
}
