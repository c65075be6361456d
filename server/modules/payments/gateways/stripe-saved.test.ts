import { beforeAll, describe, expect, test } from 'vitest'
import type { Db } from '#server/db/database.ts'
import { portableDialects } from '../../../../tests/integration/databases.ts'
import { useStripePayments, type StandIn } from '../../../../tests/support/modules/stripe-payments.ts'
import {
  intentJson,
  signedEvent,
  standInCases,
  STAND_IN_SECRET_KEY,
  STAND_IN_WEBHOOK_SECRET,
} from '../../../../tests/support/stripe-stand-in.ts'
import { installmentRows, ledgerBroken, paymentsTestApi } from '../../../../tests/support/modules/payments.ts'
import { createStripeGateway } from './stripe.ts'
import { hourlyContractFor, mondayWeeksAgo } from '../../../../tests/support/modules/timesheets.ts'

// An hourly contract's weeks charged to the client's card through Stripe (decision 334), offline:
// the calls go to the Stripe stand-in (tests/support/stripe-stand-in.ts), the webhooks are signed
// with the package's generateTestHeaderString and go through the real API on both databases.

test("payment_intent.succeeded is ours only for a charge made without the client; a checkout's is its session's", async () => {
  const gateway = createStripeGateway({
    secretKey: STAND_IN_SECRET_KEY,
    webhookSecret: STAND_IN_WEBHOOK_SECRET,
    publicUrl: 'http://localhost:3000',
  })
  const intent = (metadata: Record<string, string>) => {
    const w = signedEvent('payment_intent.succeeded', {
      ...intentJson(
        { id: 'pi_1', amount: 8240, currency: 'eur', customer: 'cus_1', payment_method: 'pm_1', metadata },
        'succeeded',
      ),
    })
    return gateway.verify(w.body, new Headers(w.headers))
  }
  expect(await intent({ paymentToken: 'tok_checkout' })).toBeNull()
  expect(await intent({ paymentToken: 'tok_week', offSession: 'yes' })).toMatchObject({
    type: 'payment.succeeded',
    paymentToken: 'tok_week',
    amountMinor: 8240,
    currency: 'EUR',
    offSession: true,
  })
})

for (const dialect of portableDialects) {
  describe(`an hourly contract's weeks charged through Stripe on ${dialect}`, () => {
    // The client pays the weeks; the freelancer logs them. Both are made once for the block.
    const { s, send, stand } = useStripePayments(dialect)
    type U = { id: number; token: string }
    let t: ReturnType<typeof paymentsTestApi>, fake: StandIn, database: Db, client: U, freelancer: U
    beforeAll(() => {
      fake = stand()
      ;({ t, database, client, freelancer } = s)
    })

    const approveWeek = async (projectId: number, weeksAgo: number, hours: number) => {
      const path = `projects/${projectId}/timesheets`
      const logged = await t.call('POST', `${path}/entries`, {
        token: freelancer.token,
        body: { date: mondayWeeksAgo(weeksAgo), hours, description: 'Site visit' },
      })
      const id = logged.json.week.id as number
      await t.call('POST', `${path}/weeks/${id}/submit`, { token: freelancer.token })
      const approved = await t.call('POST', `${path}/weeks/${id}/approve`, { token: client.token })
      expect(approved.status, approved.text).toBe(200)
      return approved.json.week
    }
    const lastPayment = (contractId: number) =>
      database.db
        .selectFrom('payment')
        .selectAll()
        .where('contract_id', '=', contractId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
    const sentTo = (path: string) => fake.sent.filter((r) => r.method === 'POST' && r.path === path)
    const chargeFailedBells = async (projectId: number) => {
      await t.api.jobs.outbox.drain()
      const bells = await database.db
        .selectFrom('notification')
        .select('message_key')
        .where('user_id', '=', client.id)
        .where('project_id', '=', projectId)
        .execute()
      return bells.filter((b) => b.message_key === 'timesheets:notify.weekChargeFailed').length
    }

    test("the first week's checkout saves the card under the client's Customer; the next week is charged off-session and released by its webhook, once", async () => {
      fake.sent.length = 0
      const c = await hourlyContractFor(t.call, database, client, freelancer, { rateMinor: 8000 })
      await approveWeek(c.projectId, 3, 2)
      const [first] = await installmentRows(database, c.contractId)
      const paid = await t.call('POST', 'Payment/PayProjectInstallments', {
        token: client.token,
        body: { projectId: c.projectId, installmentIds: [first!.id] },
      })
      expect(paid.status, paid.text).toBe(200)
      const [customer] = sentTo('/v1/customers')
      expect(customer).toMatchObject({ idempotencyKey: `customer-${client.id}` })
      const kept = await database.db
        .selectFrom('gateway_customer')
        .selectAll()
        .where('client_id', '=', client.id)
        .executeTakeFirstOrThrow()
      expect(kept).toMatchObject({ gateway: 'stripe', customer_ref: expect.stringMatching(/^cus_/) })
      expect(Object.fromEntries(sentTo('/v1/checkout/sessions').at(-1)!.form)).toMatchObject({
        customer: kept.customer_ref,
        'payment_intent_data[setup_future_usage]': 'off_session',
        'metadata[saveCard]': 'yes',
      })

      // Stripe's webhook of the paid checkout: the week is released and the PaymentIntent's card kept.
      const completed = await send(fake.complete(`cs_test_${paid.json.token}`)!)
      expect(completed, JSON.stringify(completed.json)).toMatchObject({
        status: 200,
        json: { applied: true },
      })
      const saved = await database.db
        .selectFrom('saved_payment_method')
        .selectAll()
        .where('client_id', '=', client.id)
        .execute()
      expect(saved).toEqual([
        expect.objectContaining({
          gateway: 'stripe',
          customer_ref: kept.customer_ref,
          method_ref: standInCases.savedCard,
          label: '•••• 4242',
        }),
      ])

      const second = await approveWeek(c.projectId, 2, 3)
      expect(second.installmentStatus).toBe('pending')
      const charge = sentTo('/v1/payment_intents').at(-1)!
      const payment = await lastPayment(c.contractId)
      expect(charge.idempotencyKey).toBe(`charge-${payment.token}`)
      expect(Object.fromEntries(charge.form)).toMatchObject({
        amount: String(payment.total_minor),
        currency: 'eur',
        customer: kept.customer_ref,
        payment_method: standInCases.savedCard,
        off_session: 'true',
        confirm: 'true',
        'metadata[paymentToken]': payment.token,
      })
      expect(payment).toMatchObject({ status: 'open', gateway_ref: expect.stringMatching(/^pi_/) })
      // A bad signature changes nothing; the signed payment_intent.succeeded releases the week, once.
      const intent = fake.intents.get(payment.gateway_ref!)!
      const succeeded = signedEvent('payment_intent.succeeded', intentJson(intent, 'succeeded'))
      expect((await send({ ...succeeded, body: succeeded.body.replace('"eur"', '"usd"') })).status).toBe(400)
      expect((await send(succeeded)).json.applied).toBe(true)
      expect((await send(succeeded)).json.applied).toBe(false)
      expect((await installmentRows(database, c.contractId)).map((i) => i.status)).toEqual([
        'released',
        'released',
      ])
      expect(await ledgerBroken(database)).toEqual([])
      // Another customer's charge was not made: one Customer for the client, however many checkouts.
      expect(sentTo('/v1/customers')).toHaveLength(1)
    })

    test('a charge Stripe fails later (payment_intent.payment_failed) leaves the week to the checkout and tells the client once', async () => {
      const c = await hourlyContractFor(t.call, database, client, freelancer, { rateMinor: 7000 })
      await database.db
        .updateTable('saved_payment_method')
        .set({ method_ref: standInCases.savedCard })
        .where('client_id', '=', client.id)
        .execute()
      expect((await approveWeek(c.projectId, 2, 2)).installmentStatus).toBe('pending')
      const payment = await lastPayment(c.contractId)
      expect(payment.status).toBe('open')
      const intent = fake.intents.get(payment.gateway_ref!)!
      const failed = signedEvent('payment_intent.payment_failed', {
        ...intentJson(intent, 'requires_payment_method'),
        last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' },
      })
      expect((await send(failed)).json.applied).toBe(true)
      expect(await lastPayment(c.contractId)).toMatchObject({
        status: 'failed',
        failure: 'insufficient_funds',
      })
      expect(await chargeFailedBells(c.projectId)).toBe(1)
      expect((await send(failed)).json.applied).toBe(false)
      expect(await chargeFailedBells(c.projectId)).toBe(1)
      expect((await installmentRows(database, c.contractId))[0]!.status).toBe('pending')
    })

    test('a card that needs the client (authentication_required) leaves the week to the checkout and tells them once', async () => {
      const c = await hourlyContractFor(t.call, database, client, freelancer, { rateMinor: 6000 })
      await database.db
        .updateTable('saved_payment_method')
        .set({ method_ref: standInCases.authenticationCard })
        .where('client_id', '=', client.id)
        .execute()
      const week = await approveWeek(c.projectId, 1, 1)
      expect(week.installmentStatus).toBe('pending')
      const payment = await lastPayment(c.contractId)
      expect(payment).toMatchObject({ status: 'failed', failure: 'authentication_required' })
      expect(await chargeFailedBells(c.projectId)).toBe(1)
      // Stripe's own failure event for the same PaymentIntent comes later: nothing more happens.
      const intent = fake.intents.get(payment.gateway_ref!)!
      const failed = await send(
        signedEvent('payment_intent.payment_failed', intentJson(intent, 'requires_payment_method')),
      )
      expect(failed).toMatchObject({ status: 200, json: { applied: false } })
      expect(await chargeFailedBells(c.projectId)).toBe(1)
      // The checkout still takes it, and the client's Customer is reused.
      const customers = sentTo('/v1/customers').length
      const [i] = await installmentRows(database, c.contractId)
      const paid = await t.call('POST', 'Payment/PayProjectInstallments', {
        token: client.token,
        body: { projectId: c.projectId, installmentIds: [i!.id] },
      })
      expect(paid.status, paid.text).toBe(200)
      expect(sentTo('/v1/customers')).toHaveLength(customers)
      expect((await send(fake.complete(`cs_test_${paid.json.token}`)!)).json.applied).toBe(true)
      expect((await installmentRows(database, c.contractId))[0]!.status).toBe('released')
    })

    test("an erased client's Customer is deleted at Stripe after commit, with the cards saved under it", async () => {
      const leaving = await t.user('client', 'Lena', 'Leaving')
      const now = new Date().toISOString()
      await database.db
        .insertInto('gateway_customer')
        .values({ client_id: leaving.id, gateway: 'stripe', customer_ref: 'cus_leaving', created_at: now })
        .execute()
      await database.db
        .insertInto('saved_payment_method')
        .values({
          client_id: leaving.id,
          gateway: 'stripe',
          customer_ref: 'cus_leaving',
          method_ref: standInCases.savedCard,
          label: '•••• 4242',
          created_at: now,
        })
        .execute()
      const deleted = await t.call('POST', `Admin/users/${leaving.id}/delete`, {
        token: s.admin.token,
        body: { reason: 'Asked to be forgotten' },
      })
      expect(deleted.status, deleted.text).toBe(200)
      await t.api.jobs.outbox.drain()
      expect(fake.sent.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
        '/v1/customers/cus_leaving',
      ])
      for (const table of ['gateway_customer', 'saved_payment_method'] as const)
        expect(
          await database.db.selectFrom(table).select('id').where('client_id', '=', leaving.id).execute(),
        ).toEqual([])
    })
  })
}
