import os from 'node:os'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import Stripe from 'stripe'
import type { Db } from '#server/db/database.ts'
import { dialects } from '../../../../tests/integration/databases.ts'
import { useStripePayments, type StandIn } from '../../../../tests/support/modules/stripe-payments.ts'
import {
  forged,
  signedEvent as webhook,
  standInCases,
  startStripeStandIn,
  STAND_IN_SECRET_KEY as SECRET_KEY,
  STAND_IN_WEBHOOK_SECRET as WEBHOOK_SECRET,
} from '../../../../tests/support/stripe-stand-in.ts'
import { loadConfig, ConfigError } from '#server/config.ts'
import { contractFor, paymentsTestApi } from '../../../../tests/support/modules/payments.ts'
import { createStripeGateway, eventOf } from './stripe.ts'

// The Stripe gateway, offline (decision 195). Webhooks are signed with the package's own test
// helper (generateTestHeaderString) and go through the real API on both databases. Stripe's API
// cannot be reached from here, so its calls go to a small HTTP server on the loopback
// (tests/support/stripe-stand-in.ts) that answers like Stripe's API for the four calls the gateway
// makes: that server is a mock of what cannot run here. It records what it was sent, so the
// amounts, currencies and idempotency keys are checked.

const completed = (token: string, amount: number, extra: Record<string, unknown> = {}) =>
  webhook(
    'checkout.session.completed',
    {
      id: `cs_test_${token}`,
      object: 'checkout.session',
      client_reference_id: token,
      metadata: { paymentToken: token },
      amount_total: amount,
      currency: 'eur',
      payment_status: 'paid',
      status: 'complete',
      payment_intent: `pi_for_cs_test_${token}`,
    },
    extra,
  )
const intentFailed = (token: string, amount: number) =>
  webhook('payment_intent.payment_failed', {
    id: `pi_for_cs_test_${token}`,
    object: 'payment_intent',
    amount,
    currency: 'eur',
    metadata: { paymentToken: token },
    last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
  })

describe('Stripe events mapped to ours', () => {
  const gateway = createStripeGateway({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    publicUrl: 'http://localhost:3000',
  })
  const verify = (w: { body: string; headers: Record<string, string> }) =>
    gateway.verify(w.body, new Headers(w.headers))

  test('a signed checkout.session.completed is our payment.succeeded; a bad, missing, foreign-secret or stale signature is refused', async () => {
    const w = completed('tok_abcdefghijkl', 41200)
    expect(await verify(w)).toEqual({
      id: w.id,
      type: 'payment.succeeded',
      paymentToken: 'tok_abcdefghijkl',
      amountMinor: 41200,
      currency: 'EUR',
    })
    const tampered = { ...w, body: w.body.replace('41200', '41201') }
    await expect(verify(tampered)).rejects.toMatchObject({
      status: 400,
      errors: { signature: ['does not match'] },
    })
    await expect(
      verify({ body: w.body, headers: { 'content-type': 'application/json' } }),
    ).rejects.toMatchObject({ status: 400, errors: { signature: ['is missing or malformed'] } })
    await expect(
      verify(completed('tok_abcdefghijkl', 41200, { secret: 'whsec_someoneelse000000' })),
    ).rejects.toMatchObject({ status: 400 })
    await expect(
      verify(completed('tok_abcdefghijkl', 41200, { timestamp: Math.floor(Date.now() / 1000) - 600 })),
    ).rejects.toMatchObject({ status: 400, errors: { signature: ['is too old'] } })
  })

  test('failures, refunds and transfers; events about something else are acknowledged as nothing of ours', async () => {
    expect(await verify(intentFailed('tok_abcdefghijkl', 41200))).toMatchObject({
      type: 'payment.failed',
      paymentToken: 'tok_abcdefghijkl',
      amountMinor: 41200,
      failure: 'insufficient_funds',
    })
    expect(
      await verify(
        webhook('checkout.session.expired', {
          object: 'checkout.session',
          client_reference_id: 'tok_x',
          amount_total: 500,
          currency: 'usd',
          payment_status: 'unpaid',
        }),
      ),
    ).toMatchObject({ type: 'payment.failed', currency: 'USD', failure: 'checkout_expired' })
    // Completed but not yet paid (a bank debit): the answer comes later as async_payment_succeeded.
    expect(
      await verify(
        webhook('checkout.session.completed', {
          object: 'checkout.session',
          client_reference_id: 'tok_x',
          amount_total: 500,
          currency: 'eur',
          payment_status: 'unpaid',
        }),
      ),
    ).toBeNull()
    expect(
      await verify(
        webhook('checkout.session.async_payment_succeeded', {
          object: 'checkout.session',
          client_reference_id: 'tok_x',
          amount_total: 500,
          currency: 'eur',
          payment_status: 'paid',
        }),
      ),
    ).toMatchObject({ type: 'payment.succeeded', paymentToken: 'tok_x' })
    const refund = (status: string, failure_reason: string | null = null) => ({
      id: 're_1',
      object: 'refund',
      amount: 2000,
      currency: 'eur',
      status,
      failure_reason,
      metadata: { refundId: '17' },
    })
    expect(await verify(webhook('refund.updated', refund('succeeded')))).toMatchObject({
      type: 'refund.succeeded',
      paymentToken: '17',
      amountMinor: 2000,
      currency: 'EUR',
    })
    expect(
      await verify(webhook('refund.failed', refund('failed', 'expired_or_canceled_card'))),
    ).toMatchObject({ type: 'refund.failed', paymentToken: '17', failure: 'expired_or_canceled_card' })
    expect(await verify(webhook('refund.created', refund('pending')))).toBeNull()
    const transfer = (amount_reversed: number) => ({
      id: 'tr_1',
      object: 'transfer',
      amount: 9000,
      currency: 'eur',
      amount_reversed,
      destination: 'acct_1abcdef',
      metadata: { payoutId: '5' },
    })
    expect(await verify(webhook('transfer.created', transfer(0)))).toMatchObject({
      type: 'payout.succeeded',
      paymentToken: '5',
      amountMinor: 9000,
    })
    expect(await verify(webhook('transfer.reversed', transfer(9000)))).toMatchObject({
      type: 'payout.failed',
      paymentToken: '5',
      failure: 'transfer_reversed',
    })
    expect(await verify(webhook('transfer.reversed', transfer(100)))).toBeNull()
    expect(await verify(webhook('customer.created', { id: 'cus_1', object: 'customer' }))).toBeNull()
    // A payment of another product on the same Stripe account carries no token of ours.
    expect(
      eventOf({
        id: 'evt_1',
        type: 'payment_intent.payment_failed',
        data: { object: { amount: 1, currency: 'eur', metadata: {} } },
      } as unknown as Stripe.Event),
    ).toBeNull()
  })
})

describe('settings', () => {
  test('Stripe needs both keys, each in its own shape; without them it is the sandbox', () => {
    const env = { NODE_ENV: 'test', DATA_DIR: os.tmpdir() }
    expect(loadConfig(env).stripe).toBeUndefined()
    expect(
      loadConfig({ ...env, STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }).stripe,
    ).toMatchObject({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET })
    expect(() => loadConfig({ ...env, STRIPE_SECRET_KEY: SECRET_KEY })).toThrow(
      /STRIPE_WEBHOOK_SECRET is missing/,
    )
    expect(() =>
      loadConfig({
        ...env,
        STRIPE_SECRET_KEY: 'pk_test_publishable0000',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      }),
    ).toThrow(ConfigError)
    expect(() =>
      loadConfig({ ...env, STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: 'secret' }),
    ).toThrow(/STRIPE_WEBHOOK_SECRET: must be/)
  })
})

describe('refunds and transfers sent to Stripe', () => {
  let fake: StandIn
  let gateway: ReturnType<typeof createStripeGateway>
  beforeAll(async () => {
    fake = await startStripeStandIn()
    gateway = createStripeGateway({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      publicUrl: 'http://localhost:3000',
      apiUrl: fake.base,
    })
  })
  afterAll(() => fake.stop())
  beforeEach(() => {
    fake.sent.length = 0
  })

  test("a refund refunds the Checkout Session's PaymentIntent, for the amount asked, keyed by our refund id", async () => {
    const done = await gateway.refund({
      refundId: '31',
      paymentToken: 'tok_abcdefghijkl',
      gatewayRef: 'cs_test_tok_abcdefghijkl',
      amountMinor: 20600,
      currency: 'EUR',
    })
    expect(done).toMatchObject({ status: 'succeeded', gatewayRef: expect.stringMatching(/^re_/) })
    const [lookup, create] = fake.sent
    expect(lookup).toMatchObject({ method: 'GET', path: '/v1/checkout/sessions/cs_test_tok_abcdefghijkl' })
    expect(create).toMatchObject({ method: 'POST', path: '/v1/refunds', idempotencyKey: 'refund-31' })
    expect(Object.fromEntries(create.form)).toMatchObject({
      payment_intent: 'pi_for_cs_test_tok_abcdefghijkl',
      amount: '20600',
      'metadata[refundId]': '31',
      'metadata[paymentToken]': 'tok_abcdefghijkl',
    })
    // Asked again (a retry after a lost answer): the same key, so Stripe refunds once.
    await gateway.refund({
      refundId: '31',
      paymentToken: 'tok_abcdefghijkl',
      gatewayRef: 'pi_direct',
      amountMinor: 20600,
      currency: 'EUR',
    })
    expect(fake.sent.at(-1)).toMatchObject({ path: '/v1/refunds', idempotencyKey: 'refund-31' })
    expect(fake.sent.at(-1)!.form.get('payment_intent')).toBe('pi_direct')
    // A refund Stripe has not finished is pending: its answer comes as a refund.* webhook.
    expect(
      (
        await gateway.refund({
          refundId: '32',
          paymentToken: 't',
          gatewayRef: 'pi_direct',
          amountMinor: standInCases.pendingRefundMinor,
          currency: 'EUR',
        })
      ).status,
    ).toBe('pending')
    expect(
      await gateway.refund({
        refundId: '33',
        paymentToken: 't',
        gatewayRef: 'pi_direct',
        amountMinor: standInCases.refundTooLargeMinor,
        currency: 'EUR',
      }),
    ).toMatchObject({ status: 'failed', failure: 'amount_too_large' })
  })

  test("a payout is a transfer to the connected account, keyed by our payout id; Stripe's refusal fails it, an unknown outcome is thrown", async () => {
    const done = await gateway.payout({
      payoutId: '12',
      amountMinor: 108000,
      currency: 'EUR',
      destination: { kind: 'stripe_account', ref: 'acct_1Freelancer' },
    })
    expect(done).toMatchObject({ status: 'succeeded', gatewayRef: expect.stringMatching(/^tr_/) })
    expect(fake.sent[0]).toMatchObject({ method: 'POST', path: '/v1/transfers', idempotencyKey: 'payout-12' })
    expect(Object.fromEntries(fake.sent[0].form)).toMatchObject({
      amount: '108000',
      currency: 'eur',
      destination: 'acct_1Freelancer',
      'metadata[payoutId]': '12',
      transfer_group: 'payout-12',
    })
    expect(
      await gateway.payout({
        payoutId: '13',
        amountMinor: 5000,
        currency: 'EUR',
        destination: { kind: 'stripe_account', ref: standInCases.unknownAccount },
      }),
    ).toMatchObject({ status: 'failed', failure: 'account_invalid' })
    // Stripe pays only connected accounts: a bank account or PayPal address fails without a call.
    const sentBefore = fake.sent.length
    expect(
      await gateway.payout({
        payoutId: '14',
        amountMinor: 5000,
        currency: 'EUR',
        destination: { kind: 'bank', ref: 'DE89370400440532013000' },
      }),
    ).toMatchObject({ status: 'failed', failure: 'destination_not_supported' })
    expect(fake.sent.length).toBe(sentBefore)
    // A server error says nothing about whether the transfer happened: the caller asks again, same key.
    await expect(
      gateway.payout({
        payoutId: '15',
        amountMinor: 5000,
        currency: 'EUR',
        destination: { kind: 'stripe_account', ref: standInCases.unreachableAccount },
      }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError)
  })
})

for (const dialect of dialects) {
  describe(`Stripe payments on ${dialect}`, () => {
    const stripe = useStripePayments(dialect)
    const { s, send } = stripe
    let fake: StandIn
    let database: Db, t: ReturnType<typeof paymentsTestApi>
    type U = Awaited<ReturnType<typeof t.user>>
    let client: U, freelancer: U
    beforeAll(() => {
      ;({ database, t, client, freelancer } = s)
      fake = stripe.stand()
    })

    const statusOf = async (id: number) =>
      (
        await database.db
          .selectFrom('installment')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).status
    const paymentOf = (token: string) =>
      database.db.selectFrom('payment').selectAll().where('token', '=', token).executeTakeFirstOrThrow()
    const held = async () =>
      (await t.call('GET', 'Payment/balances', { token: client.token })).json.data[0]?.heldMinor ?? 0
    const ledgerRows = async () =>
      Number(
        (
          await database.db
            .selectFrom('ledger_entry')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )

    async function startPayment(amounts: number[]) {
      const c = await contractFor(t.call, database, client, freelancer, amounts)
      const paid = await t.call('POST', 'Payment/PayProjectInstallments', {
        token: client.token,
        body: { projectId: c.projectId, installmentIds: c.installments.map((i) => i.id) },
      })
      expect(paid.status, paid.text).toBe(200)
      return {
        ...c,
        token: paid.json.token as string,
        total: paid.json.totalMinor as number,
        checkoutUrl: paid.json.checkoutUrl as string,
      }
    }

    test("paying opens a Checkout Session for the contract's total and sends the browser to it; the sandbox is off", async () => {
      fake.sent.length = 0
      const p = await startPayment([40000])
      expect(p.checkoutUrl).toBe(`${fake.base}/pay/cs_test_${p.token}`)
      const [create] = fake.sent
      expect(create).toMatchObject({
        method: 'POST',
        path: '/v1/checkout/sessions',
        idempotencyKey: `checkout-${p.token}`,
      })
      expect(Object.fromEntries(create.form)).toMatchObject({
        mode: 'payment',
        client_reference_id: p.token,
        'metadata[paymentToken]': p.token,
        'payment_intent_data[metadata][paymentToken]': p.token,
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][unit_amount]': '41200',
        'line_items[0][price_data][currency]': 'eur',
        'line_items[0][price_data][product_data][name]': 'Steel frame checks for a warehouse',
        success_url: `https://workneer.example/projects/client/details/${p.projectId}`,
      })
      expect(await paymentOf(p.token)).toMatchObject({
        gateway: 'stripe',
        gateway_ref: `cs_test_${p.token}`,
        status: 'open',
        total_minor: 41200,
      })
      // Test cards cannot pay a payment, nor can a sandbox callback confirm one, on a site that takes real money.
      expect((await t.call('GET', `Payment/sandbox/${p.token}`)).status).toBe(404)
      expect(
        (
          await t.raw('POST', 'Payment/PaymentCallback', {
            body: '{}',
            headers: { 'content-type': 'application/json' },
          })
        ).status,
      ).toBe(404)
    })

    test('webhooks: a bad signature changes nothing; a failure, then success funds once; replays, twins and late failures change nothing', async () => {
      const p = await startPayment([40000, 20000])
      const rows = await ledgerRows()
      const success = completed(p.token, p.total)
      expect((await send(forged(success))).status).toBe(400)
      expect(
        (await send(completed(p.token, p.total, { timestamp: Math.floor(Date.now() / 1000) - 3600 }))).status,
      ).toBe(400)
      expect((await send(completed(p.token, 1))).status).toBe(400)
      expect(await ledgerRows()).toBe(rows)
      expect(await statusOf(p.installments[0].id)).toBe('pending')

      // A declined card at Stripe's page: recorded; the client may try another card there.
      expect((await send(intentFailed(p.token, p.total))).json).toEqual({ received: true, applied: true })
      expect(await paymentOf(p.token)).toMatchObject({ status: 'failed', failure: 'insufficient_funds' })
      expect(await statusOf(p.installments[0].id)).toBe('pending')

      // The same success delivered twice at once (Stripe retries while the first is still running).
      const heldBefore = await held()
      const twins = await Promise.all([send(success), send(success)])
      expect(twins.map((r) => r.status)).toEqual([200, 200])
      expect(twins.map((r) => r.json.applied).sort()).toEqual([false, true])
      expect(await statusOf(p.installments[0].id)).toBe('funded')
      expect(await statusOf(p.installments[1].id)).toBe('funded')
      expect(await held()).toBe(heldBefore + p.total)
      const afterCapture = await ledgerRows()

      // Replayed later, re-signed with a fresh timestamp, a new event about the same payment, a late failure, an expiry: nothing moves.
      expect((await send(success)).json).toEqual({ received: true, applied: false })
      expect((await send(completed(p.token, p.total, { id: success.id }))).json).toEqual({
        received: true,
        applied: false,
      })
      expect((await send(completed(p.token, p.total))).json).toEqual({ received: true, applied: false })
      expect((await send(intentFailed(p.token, p.total))).json).toEqual({ received: true, applied: false })
      expect(
        (
          await send(
            webhook('checkout.session.expired', {
              object: 'checkout.session',
              client_reference_id: p.token,
              amount_total: p.total,
              currency: 'eur',
              payment_status: 'unpaid',
            }),
          )
        ).json,
      ).toEqual({ received: true, applied: false })
      expect(await paymentOf(p.token)).toMatchObject({ status: 'succeeded', failure: null })
      expect(await ledgerRows()).toBe(afterCapture)
      expect(await held()).toBe(heldBefore + p.total)
    })

    test('out of order: a success that arrives before the failure it followed stands; events not about our money are acknowledged', async () => {
      const p = await startPayment([30000])
      expect((await send(completed(p.token, p.total))).json.applied).toBe(true)
      expect((await send(intentFailed(p.token, p.total))).json.applied).toBe(false)
      expect(await statusOf(p.installments[0].id)).toBe('funded')
      const rows = await ledgerRows()
      expect(await send(webhook('customer.created', { id: 'cus_1', object: 'customer' }))).toEqual({
        status: 200,
        json: { received: true, applied: false },
      })
      expect(
        (
          await send(
            webhook('checkout.session.completed', {
              object: 'checkout.session',
              client_reference_id: 'not_one_of_ours_000',
              amount_total: 100,
              currency: 'eur',
              payment_status: 'paid',
            }),
          )
        ).json,
      ).toEqual({ received: true, applied: false })
      // A refund's answer about no refund of ours (id 1 was never asked for) is recorded as seen and moves nothing.
      const refunded = webhook('refund.updated', {
        id: 're_1',
        object: 'refund',
        amount: 1000,
        currency: 'eur',
        status: 'succeeded',
        metadata: { refundId: '1' },
      })
      expect((await send(refunded)).json).toEqual({ received: true, applied: false })
      expect(await ledgerRows()).toBe(rows)
    })

    test('a replaced checkout paid anyway at Stripe funds the installment; the newer one, paid too, is held for the client, not lost', async () => {
      const c = await contractFor(t.call, database, client, freelancer, [25000])
      const pay = async () =>
        (
          await t.call('POST', 'Payment/PayProjectInstallments', {
            token: client.token,
            body: { projectId: c.projectId, installmentIds: [c.installments[0].id] },
          })
        ).json
      const first = await pay()
      const second = await pay()
      expect(await paymentOf(first.token)).toMatchObject({ status: 'cancelled' })
      const heldBefore = await held()
      // The first session was still open at Stripe (30 minutes) and the client paid it in another tab.
      expect((await send(completed(first.token, first.totalMinor))).json).toEqual({
        received: true,
        applied: true,
      })
      expect(await paymentOf(first.token)).toMatchObject({ status: 'succeeded', applied: 1 })
      expect(await statusOf(c.installments[0].id)).toBe('funded')
      // Then the newer one too: the installment is funded already, so that money stays held for the client (decision 172).
      expect((await send(completed(second.token, second.totalMinor))).json.applied).toBe(true)
      expect(await paymentOf(second.token)).toMatchObject({ status: 'succeeded', applied: 0 })
      expect(await held()).toBe(heldBefore + first.totalMinor + second.totalMinor)
    })
  })
}
