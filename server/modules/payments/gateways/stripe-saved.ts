import type Stripe from 'stripe'
import type { GatewayEvent, SavedCharge, SavedChargeResult } from './gateway.ts'

// Charges without the client through Stripe (decision 334): a Customer per client, created once;
// an hourly contract's Checkout saves the card under it (`setup_future_usage: 'off_session'`); the
// webhook of the completed checkout names the PaymentIntent whose payment method is kept; an
// approved week is a PaymentIntent confirmed off-session, whose answer comes as a webhook.

export const customerIdempotencyKey = (clientId: number) => `customer-${clientId}`
export const chargeIdempotencyKey = (token: string) => `charge-${token}`
/** Marks a Checkout Session that saves its card, and a PaymentIntent made without the client. */
export const SAVES_CARD = 'saveCard'
export const OFF_SESSION = 'offSession'

/** The client's Customer: one per client (the key makes a retry, or two checkouts at once, create one). */
export async function createCustomer(
  stripe: Stripe,
  client: { clientId: number; email: string; name: string },
) {
  const customer = await stripe.customers.create(
    { email: client.email, name: client.name, metadata: { clientId: String(client.clientId) } },
    { idempotencyKey: customerIdempotencyKey(client.clientId) },
  )
  return customer.id
}

/**
 * Deletes the client's Customer, which deletes the cards saved under it at Stripe (an erased
 * account's, decision 348). One Stripe no longer knows is already what was asked.
 */
export async function deleteCustomer(stripe: Stripe, customerRef: string) {
  try {
    await stripe.customers.del(customerRef)
  } catch (error) {
    if ((error as { code?: string }).code !== 'resource_missing') throw error
  }
}

/** What a Checkout Session adds to save the card it is paid with under the client's Customer. */
export const savingCard = (customer: string | undefined) =>
  customer
    ? {
        customer,
        metadata: { [SAVES_CARD]: 'yes' },
        payment_intent_data: { setup_future_usage: 'off_session' as const },
      }
    : undefined

/** The card a completed checkout that saves its card was paid with (its PaymentIntent's payment method). */
export async function savedMethodOf(
  stripe: Stripe,
  event: Stripe.Event,
): Promise<GatewayEvent['savedMethod'] | undefined> {
  if (event.type !== 'checkout.session.completed') return undefined
  const s = event.data.object
  const customer = typeof s.customer === 'string' ? s.customer : s.customer?.id
  const intent = typeof s.payment_intent === 'string' ? s.payment_intent : s.payment_intent?.id
  if (s.metadata?.[SAVES_CARD] !== 'yes' || s.payment_status !== 'paid' || !customer || !intent)
    return undefined
  const pi = await stripe.paymentIntents.retrieve(intent, { expand: ['payment_method'] })
  const pm = pi.payment_method
  if (!pm) return undefined
  if (typeof pm === 'string') return { customerRef: customer, methodRef: pm, label: '••••' }
  const last4 = pm.card?.last4
  return { customerRef: customer, methodRef: pm.id, label: last4 ? `•••• ${last4}` : pm.type }
}

type Ours = (
  token: string | null | undefined,
  type: GatewayEvent['type'],
  amountMinor: number,
  currency: string,
  failure?: string | null,
) => GatewayEvent | null

/**
 * A PaymentIntent's answer: a failure is ours whoever confirmed it (a week charged without the
 * client is marked so), a success only when made without the client (a checkout's is its session's).
 */
export function intentEvent(event: Stripe.Event, ours: Ours): GatewayEvent | null {
  if (event.type === 'payment_intent.payment_failed') {
    const pi = event.data.object
    const err = pi.last_payment_error
    const failed = ours(
      pi.metadata?.paymentToken,
      'payment.failed',
      pi.amount,
      pi.currency,
      err?.decline_code ?? err?.code ?? 'payment_failed',
    )
    return failed && pi.metadata?.[OFF_SESSION] === 'yes' ? { ...failed, offSession: true } : failed
  }
  if (event.type !== 'payment_intent.succeeded') return null
  const pi = event.data.object
  if (pi.metadata?.[OFF_SESSION] !== 'yes') return null
  const succeeded = ours(pi.metadata.paymentToken, 'payment.succeeded', pi.amount_received, pi.currency)
  return succeeded && { ...succeeded, offSession: true }
}

/**
 * Charges the saved card off-session, once per payment token. Stripe answers at once only when it
 * refuses (a decline, `authentication_required`): failed, and the client pays at the checkout;
 * otherwise the PaymentIntent's outcome comes as its webhook, so the charge is pending.
 */
export async function chargeSaved(
  stripe: Stripe,
  c: SavedCharge,
  refused: (e: unknown) => { failure: string; gatewayRef: string } | null,
): Promise<SavedChargeResult> {
  try {
    const pi = await stripe.paymentIntents.create(
      {
        amount: c.totalMinor,
        currency: c.currency.toLowerCase(),
        ...(c.customerRef ? { customer: c.customerRef } : {}),
        payment_method: c.methodRef,
        off_session: true,
        confirm: true,
        description: c.description,
        metadata: { paymentToken: c.token, [OFF_SESSION]: 'yes' },
      },
      { idempotencyKey: chargeIdempotencyKey(c.token) },
    )
    if (pi.status === 'succeeded' || pi.status === 'processing')
      return { status: 'pending', gatewayRef: pi.id }
    return {
      status: 'failed',
      gatewayRef: pi.id,
      failure: pi.last_payment_error?.code ?? pi.status,
    }
  } catch (e) {
    const no = refused(e)
    if (no) return { status: 'failed', ...no }
    throw e
  }
}
