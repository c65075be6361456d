import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { ApiError } from '#server/api/errors.ts'
import { gatewayEventTypes, type Gateway, type GatewayEvent } from './gateway.ts'
import { failingPayoutDestinations, testCards } from './test-cards.ts'

export { failingPayoutDestinations, testCards }

// The built-in sandbox gateway (decision 171): a hosted checkout served by Workneer itself with a
// card form that takes test numbers, and callbacks signed like a real gateway's webhooks
// (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`), sent to Payment/PaymentCallback.
export const SANDBOX = 'sandbox'
export const SIGNATURE_HEADER = 'workneer-signature'
/** Gateways retry a callback for days; a valid signature older than this is refused (a replay of a stale body). */
export const SIGNATURE_TOLERANCE_S = 3 * 24 * 3600

export type CardOutcome = 'succeeded' | 'failed' | 'requires_action'

const luhn = (digits: string) => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

/** The checkout's card form, shared by the page and the gateway (the page never decides the outcome). */
export const cardForm = z.object({
  cardNumber: z
    .string({ error: 'is required' })
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(
      z
        .string()
        .regex(/^\d{12,19}$/, 'must be 12 to 19 digits')
        .refine(luhn, 'is not a valid card number'),
    ),
  expiry: z
    .string({ error: 'is required' })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/, 'must be MM/YY')
    .refine((v) => {
      const [m, y] = v.split('/').map((s) => Number(s.trim()))
      return new Date(Date.UTC(2000 + y, m, 1)) > new Date()
    }, 'has passed'),
  cvc: z
    .string({ error: 'is required' })
    .trim()
    .regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(100, 'must be at most 100 characters'),
  /** Keep the card for charges without the client (approved timesheet weeks, decision 324). */
  save: z.preprocess((v) => v === true || v === 'yes', z.boolean()).optional(),
})
export type CardInput = z.input<typeof cardForm>

export function cardOutcome(cardNumber: string): { outcome: CardOutcome; failure?: string } {
  if (cardNumber === testCards.succeeds) return { outcome: 'succeeded' }
  if (cardNumber === testCards.confirm) return { outcome: 'requires_action' }
  if (cardNumber === testCards.declined) return { outcome: 'failed', failure: 'card_declined' }
  return { outcome: 'failed', failure: 'not_a_test_card' }
}

/** The sandbox's reference of a saved test card: its outcome, never its number. */
export const savedMethodRef = (cardNumber: string) => `sbx_pm_${cardOutcome(cardNumber).outcome}`

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex')

export function signCallback(secret: string, body: string, at = Math.floor(Date.now() / 1000)) {
  return `t=${at},v1=${hmac(secret, `${at}.${body}`)}`
}

const eventBody = z.object({
  id: z.string().min(1).max(100),
  type: z.enum(gatewayEventTypes),
  data: z.object({
    paymentToken: z.string().min(1).max(100),
    amountMinor: z.number().int().nonnegative(),
    currency: z.string().regex(/^[A-Z]{3}$/),
    failure: z.string().max(100).optional(),
    detailsSubmitted: z.boolean().optional(),
    payoutsEnabled: z.boolean().optional(),
  }),
})

/** A sandbox event, signed, as the gateway sends it. */
export function sandboxEvent(
  secret: string,
  type: GatewayEvent['type'],
  data: {
    paymentToken: string
    amountMinor: number
    currency: string
    failure?: string
    detailsSubmitted?: boolean
    payoutsEnabled?: boolean
  },
  id: string = `evt_${randomUUID()}`,
) {
  const body = JSON.stringify({ id, type, data })
  return {
    id,
    body,
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signCallback(secret, body) },
  }
}

const refused = (why: string) => new ApiError(400, 'Invalid Info', `signature: ${why}`, { signature: [why] })

export function createSandboxGateway(secret: () => Promise<string>) {
  let key: string | undefined
  const gateway: Gateway & { secret(): Promise<string> } = {
    name: SANDBOX,
    async secret() {
      return (key ??= await secret())
    },
    async startCheckout(payment) {
      return { redirectUrl: `/checkout/${payment.token}`, gatewayRef: `sbx_${payment.token}` }
    },
    // The sandbox holds no real money: a refund succeeds at once.
    async refund(request) {
      return { status: 'succeeded', gatewayRef: `sbx_re_${request.refundId}` }
    },
    async verify(rawBody, headers) {
      const header = headers.get(SIGNATURE_HEADER) ?? ''
      const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=') as [string, string]))
      const at = Number(parts.t)
      if (!Number.isInteger(at) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? ''))
        throw refused('is missing or malformed')
      const expected = Buffer.from(hmac(await gateway.secret(), `${at}.${rawBody}`), 'hex')
      if (!timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'))) throw refused('does not match')
      if (Math.abs(Date.now() / 1000 - at) > SIGNATURE_TOLERANCE_S) throw refused('is too old')
      let parsed
      try {
        parsed = eventBody.parse(JSON.parse(rawBody))
      } catch {
        throw new ApiError(400, 'Invalid Info', 'body: is not a sandbox event', {
          body: ['is not a sandbox event'],
        })
      }
      return { id: parsed.id, type: parsed.type, ...parsed.data }
    },
    /** A saved test card answers as it did at the checkout; a success comes with its signed event. */
    async chargeSaved(charge) {
      const gatewayRef = `sbx_${charge.token}`
      if (charge.methodRef !== 'sbx_pm_succeeded')
        return { status: 'failed', gatewayRef, failure: 'card_declined' }
      const data = { paymentToken: charge.token, amountMinor: charge.totalMinor, currency: charge.currency }
      const event = sandboxEvent(await gateway.secret(), 'payment.succeeded', data)
      return { status: 'succeeded', gatewayRef, event: { body: event.body, headers: event.headers } }
    },
    /** A connected account of the sandbox's: an unguessable id, which is also its onboarding page's capability. */
    async createAccount() {
      return { accountRef: `sbx_acct_${randomBytes(12).toString('hex')}` }
    },
    /** The sandbox's own hosted onboarding page (decision 333); it sends the browser back to Payment Details. */
    async onboardingLink(request) {
      return { url: `/onboarding/${request.accountRef}` }
    },
    /** Pays out at once; the documented failing test destinations are refused (decision 186). */
    async payout(request) {
      const ref = request.destination.ref.replace(/\s/g, '').toLowerCase()
      const fails =
        ref === failingPayoutDestinations.iban.toLowerCase() || ref === failingPayoutDestinations.paypal
      return fails
        ? { status: 'failed', gatewayRef: `sbx_po_${request.payoutId}`, failure: 'destination_refused' }
        : { status: 'succeeded', gatewayRef: `sbx_po_${request.payoutId}` }
    },
  }
  return gateway
}
export type SandboxGateway = ReturnType<typeof createSandboxGateway>
