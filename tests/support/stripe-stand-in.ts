import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'

// A stand-in for Stripe on loopback, for tests that cannot reach Stripe (no internet here): a mock
// of what cannot run here, used by the gateway's tests and its end-to-end spec (decision 195). It
// answers in Stripe's shapes the calls the gateway makes (create and read a Checkout Session,
// create a refund, create a transfer, create an Express account and its Account Link), records
// what it was sent (amounts, idempotency keys), and serves a plain "hosted checkout" page whose
// Pay button sends a checkout.session.completed webhook, signed with the stripe package's own test
// helper, to `webhookUrl`, then sends the browser to the session's success address — as Stripe
// Checkout does. Its "hosted onboarding" page does the same for a connected account
// (account.updated, payouts enabled; decision 333), or lets the browser go back unfinished. For
// charges without the client (decision 334) it creates Customers, keeps the card a saving checkout
// was paid with on its PaymentIntent, and confirms off-session PaymentIntents: the authentication
// card is refused as Stripe refuses it (402, authentication_required); any other succeeds, and its
// payment_intent.succeeded webhook goes to `webhookUrl` when one is given.
export const STAND_IN_SECRET_KEY = 'sk_test_workneer0000000000'
export const STAND_IN_WEBHOOK_SECRET = 'whsec_workneertestsecret0000'

export interface Sent {
  method: string
  path: string
  idempotencyKey: string | undefined
  form: URLSearchParams
}

/** Destinations and amounts the stand-in refuses or fails on, as Stripe would. */
export const standInCases = {
  /** the card a checkout saves unless its page is told otherwise */
  savedCard: 'pm_card_visa',
  /** a saved card whose bank asks the client to confirm: an off-session charge is refused (authentication_required) */
  authenticationCard: 'pm_card_authenticationRequired',
  unreachableAccount: 'acct_unreachable00',
  unknownAccount: 'acct_noaccount0000',
  pendingRefundMinor: 777,
  refundTooLargeMinor: 1_000_000,
}

const signer = new Stripe(STAND_IN_SECRET_KEY)

/** A Stripe event as its webhooks deliver it, signed with the package's test helper. */
export function signedEvent(
  type: string,
  object: Record<string, unknown>,
  o: { id?: string; timestamp?: number; secret?: string } = {},
) {
  const id = o.id ?? `evt_test_${Date.now()}_${Math.random().toString(36).slice(2, 10)}`
  const body = JSON.stringify({
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  })
  const header = signer.webhooks.generateTestHeaderString({
    payload: body,
    secret: o.secret ?? STAND_IN_WEBHOOK_SECRET,
    timestamp: o.timestamp ?? Math.floor(Date.now() / 1000),
  })
  return {
    id,
    body,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
  }
}

/** A server's settings for Stripe through the stand-in at `base`, on a site at https://workneer.example. */
export const standInEnv = (base: string) => ({
  STRIPE_SECRET_KEY: STAND_IN_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET: STAND_IN_WEBHOOK_SECRET,
  STRIPE_API_URL: base,
  PUBLIC_URL: 'https://workneer.example',
})

/** The same event with its signature's first hex digit changed: what a forger without the secret sends. */
export function forged(w: ReturnType<typeof signedEvent>) {
  const header = w.headers['stripe-signature'].replace(/v1=./, (v) => (v.endsWith('0') ? 'v1=1' : 'v1=0'))
  return { ...w, headers: { ...w.headers, 'stripe-signature': header } }
}

interface Session {
  id: string
  token: string
  amount: number
  currency: string
  name: string
  successUrl: string
  cancelUrl: string
  customer: string | null
  savesCard: boolean
}

interface Intent {
  id: string
  amount: number
  currency: string
  customer: string | null
  payment_method: string | null
  metadata: Record<string, string>
}

const intentOf = (s: Session): Intent => ({
  id: `pi_for_${s.id}`,
  amount: s.amount,
  currency: s.currency,
  customer: s.customer,
  payment_method: null,
  metadata: { paymentToken: s.token },
})

/** A PaymentIntent in Stripe's shape, as its API and its webhooks give it. */
export const intentJson = (pi: Intent, status: string) => ({
  id: pi.id,
  object: 'payment_intent',
  amount: pi.amount,
  amount_received: status === 'succeeded' ? pi.amount : 0,
  currency: pi.currency,
  customer: pi.customer,
  payment_method: pi.payment_method,
  metadata: pi.metadata,
  status,
  last_payment_error:
    status === 'requires_payment_method' ? { code: 'authentication_required', type: 'card_error' } : null,
})

export async function startStripeStandIn(options: { webhookUrl?: () => string } = {}) {
  const sent: Sent[] = []
  const sessions = new Map<string, Session>()
  const intents = new Map<string, Intent>()
  const transfers: Array<{
    id: string
    transfer_group: string | null
    amount: number
    amount_reversed: number
  }> = []
  /** Express accounts by the idempotency key they were opened with: asked again, Stripe answers the same one. */
  const accounts = new Map<string, string>()
  const links = new Map<string, { account: string; returnUrl: string }>()
  let n = 0
  /** The checkout is paid: its PaymentIntent holds the card when the session saves it. */
  function complete(sessionId: string, authenticationCard = false) {
    const s = sessions.get(sessionId)
    if (!s) return undefined
    const card = authenticationCard ? standInCases.authenticationCard : standInCases.savedCard
    intents.set(`pi_for_${s.id}`, { ...intentOf(s), payment_method: s.savesCard ? card : null })
    return signedEvent('checkout.session.completed', {
      id: s.id,
      object: 'checkout.session',
      client_reference_id: s.token,
      customer: s.customer,
      metadata: { paymentToken: s.token, ...(s.savesCard && { saveCard: 'yes' }) },
      amount_total: s.amount,
      currency: s.currency,
      payment_status: 'paid',
      status: 'complete',
      payment_intent: `pi_for_${s.id}`,
    })
  }

  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      void route(
        req.method ?? '',
        new URL(req.url ?? '/', base),
        new URLSearchParams(body),
        req.headers,
      ).catch((e: Error) => {
        res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(String(e.stack))
      })
    })
    const answer = (status: number, json: object) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${++n}`,
        'stripe-should-retry': 'false',
      })
      res.end(JSON.stringify(json))
    }
    const error = (status: number, code: string) =>
      answer(status, { error: { type: 'invalid_request_error', code, message: `${code} (Stripe stand-in)` } })

    async function route(method: string, url: URL, form: URLSearchParams, headers: typeof req.headers) {
      // The hosted page: what the client's browser sees at Stripe.
      const page = url.pathname.match(/^\/pay\/(cs_test_[\w-]+)$/)
      if (page) {
        const s = sessions.get(page[1])
        if (!s) return error(404, 'resource_missing')
        if (method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          return res.end(
            `<!doctype html><html lang="en"><head><title>Stripe Checkout (stand-in)</title></head><body><main><h1>Pay ${s.currency.toUpperCase()} ${(s.amount / 100).toFixed(2)}</h1><p>${s.name}</p><form method="post"><button>Pay</button>${s.savesCard ? '<p>The card is kept for later payments without you.</p><button name="card" value="authentication">Pay with a card that needs authentication</button>' : ''}</form><a href="${s.cancelUrl}">Back</a></main></body></html>`,
          )
        }
        const event = complete(s.id, form.get('card') === 'authentication')!
        return deliverThenGo(event, s.successUrl)
      }
      const setup = url.pathname.match(/^\/setup\/(acctlink_\d+)$/)
      if (setup) return onboardingPage(method, setup[1])
      const key = headers['idempotency-key']
      sent.push({ method, path: url.pathname, idempotencyKey: Array.isArray(key) ? key[0] : key, form })
      if (headers.authorization !== `Bearer ${STAND_IN_SECRET_KEY}`)
        return answer(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } })
      if (method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const token = form.get('client_reference_id') ?? ''
        const s: Session = {
          id: `cs_test_${token}`,
          token,
          amount: Number(form.get('line_items[0][price_data][unit_amount]')),
          currency: form.get('line_items[0][price_data][currency]') ?? '',
          name: form.get('line_items[0][price_data][product_data][name]') ?? '',
          successUrl: form.get('success_url') ?? '',
          cancelUrl: form.get('cancel_url') ?? '',
          customer: form.get('customer'),
          savesCard: form.get('payment_intent_data[setup_future_usage]') === 'off_session',
        }
        sessions.set(s.id, s)
        return answer(200, {
          id: s.id,
          object: 'checkout.session',
          url: `${base}/pay/${s.id}`,
          amount_total: s.amount,
          currency: s.currency,
          payment_intent: null,
          status: 'open',
        })
      }
      const session = url.pathname.match(/^\/v1\/checkout\/sessions\/(cs_test_[\w-]+)$/)
      if (method === 'GET' && session)
        return answer(200, {
          id: session[1],
          object: 'checkout.session',
          payment_intent: `pi_for_${session[1]}`,
          status: 'complete',
        })
      const customer = url.pathname.match(/^\/v1\/customers\/(cus_\w+)$/)
      if (method === 'DELETE' && customer)
        return answer(200, { id: customer[1], object: 'customer', deleted: true })
      if (method === 'POST' && url.pathname === '/v1/customers')
        return answer(200, { id: `cus_${n + 1}`, object: 'customer', email: form.get('email') })
      const intent = url.pathname.match(/^\/v1\/payment_intents\/(pi_[\w-]+)$/)
      if (method === 'GET' && intent) {
        const pi = intents.get(intent[1])
        if (!pi) return error(404, 'resource_missing')
        const pm = pi.payment_method
        const expanded = [...url.searchParams].some(
          ([k, v]) => k.startsWith('expand') && v === 'payment_method',
        )
        const last4 = pm === standInCases.savedCard ? '4242' : '3184'
        return answer(200, {
          ...intentJson(pi, 'succeeded'),
          payment_method:
            pm && expanded
              ? { id: pm, object: 'payment_method', type: 'card', card: { brand: 'visa', last4 } }
              : pm,
        })
      }
      if (method === 'POST' && url.pathname === '/v1/payment_intents') return offSession(form)
      if (method === 'POST' && url.pathname === '/v1/refunds') {
        const amount = Number(form.get('amount'))
        if (!form.get('payment_intent')?.startsWith('pi_')) return error(400, 'parameter_missing')
        if (amount >= standInCases.refundTooLargeMinor) return error(400, 'amount_too_large')
        return answer(200, {
          id: `re_${n}`,
          object: 'refund',
          amount,
          currency: 'eur',
          status: amount === standInCases.pendingRefundMinor ? 'pending' : 'succeeded',
          payment_intent: form.get('payment_intent'),
          metadata: {},
        })
      }
      if (method === 'POST' && url.pathname === '/v1/transfers') {
        const destination = form.get('destination') ?? ''
        if (destination === standInCases.unreachableAccount)
          return answer(500, { error: { type: 'api_error', message: 'An unknown error occurred' } })
        if (destination === standInCases.unknownAccount) return error(400, 'account_invalid')
        const transfer = {
          id: `tr_${n}`,
          object: 'transfer',
          amount: Number(form.get('amount')),
          currency: form.get('currency'),
          destination,
          amount_reversed: 0,
          transfer_group: form.get('transfer_group'),
          metadata: {},
        }
        transfers.push(transfer)
        return answer(200, transfer)
      }
      if (method === 'POST' && url.pathname === '/v1/accounts') {
        const k = Array.isArray(key) ? key[0] : (key ?? `none-${n}`)
        if (!accounts.has(k)) accounts.set(k, `acct_standin${String(accounts.size + 1).padStart(6, '0')}`)
        const id = accounts.get(k)!
        return answer(200, {
          id,
          object: 'account',
          type: 'express',
          details_submitted: false,
          payouts_enabled: false,
        })
      }
      if (method === 'POST' && url.pathname === '/v1/account_links') {
        const id = `acctlink_${++n}`
        links.set(id, { account: form.get('account') ?? '', returnUrl: form.get('return_url') ?? '' })
        return answer(200, { object: 'account_link', url: `${base}/setup/${id}`, expires_at: 0 })
      }
      // Reconciliation looks a payout's transfer up by its group (our payout id).
      if (method === 'GET' && url.pathname === '/v1/transfers') {
        const data = transfers.filter((t) => t.transfer_group === url.searchParams.get('transfer_group'))
        return answer(200, { object: 'list', url: '/v1/transfers', has_more: false, data })
      }
      error(404, 'resource_missing')
    }

    /** Stripe's hosted onboarding: Finish enables the account and says so by a signed webhook; Back leaves it as it was. */
    async function onboardingPage(method: string, linkId: string) {
      const link = links.get(linkId)
      if (!link) return error(404, 'resource_missing')
      if (method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        return res.end(
          `<!doctype html><html lang="en"><head><title>Stripe onboarding (stand-in)</title></head><body><main><h1>Set up ${link.account}</h1><form method="post"><button>Finish</button></form><a href="${link.returnUrl}">Back</a></main></body></html>`,
        )
      }
      const event = signedEvent('account.updated', {
        id: link.account,
        object: 'account',
        type: 'express',
        details_submitted: true,
        payouts_enabled: true,
        charges_enabled: false,
      })
      return deliverThenGo(event, link.returnUrl)
    }

    /** Sends the signed webhook as Stripe does, then the browser on to `location`. */
    async function deliverThenGo(event: ReturnType<typeof signedEvent>, location: string) {
      const delivered = await fetch(options.webhookUrl!(), {
        method: 'POST',
        headers: event.headers,
        body: event.body,
      })
      if (!delivered.ok) throw new Error(`webhook answered ${delivered.status}: ${await delivered.text()}`)
      res.writeHead(303, { location })
      res.end()
    }

    /** An off-session charge of a saved card: refused at once, or succeeded with its webhook sent. */
    function offSession(form: URLSearchParams) {
      const pi: Intent = {
        id: `pi_offsession_${n + 1}`,
        amount: Number(form.get('amount')),
        currency: form.get('currency') ?? '',
        customer: form.get('customer'),
        payment_method: form.get('payment_method'),
        metadata: Object.fromEntries(
          [...form].filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v]),
        ),
      }
      intents.set(pi.id, pi)
      if (form.get('off_session') !== 'true' || form.get('confirm') !== 'true')
        return error(400, 'parameter_missing')
      if (pi.payment_method === standInCases.authenticationCard)
        return answer(402, {
          error: {
            type: 'card_error',
            code: 'authentication_required',
            message: 'Your card was declined. This transaction requires authentication. (Stripe stand-in)',
            payment_intent: intentJson(pi, 'requires_payment_method'),
          },
        })
      answer(200, intentJson(pi, 'succeeded'))
      if (options.webhookUrl) {
        const event = signedEvent('payment_intent.succeeded', intentJson(pi, 'succeeded'))
        void fetch(options.webhookUrl(), { method: 'POST', headers: event.headers, body: event.body })
      }
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    base,
    sent,
    intents,
    /** What the hosted page's Pay button does, without the browser: the signed checkout.session.completed event. */
    complete: (sessionId: string, authenticationCard = false) => complete(sessionId, authenticationCard),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
