import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import {
  startStripeStandIn,
  STAND_IN_SECRET_KEY,
  STAND_IN_WEBHOOK_SECRET,
} from '../../../tests/support/stripe-stand-in.ts'
import {
  answerLost,
  contractFor,
  fund,
  ledgerBroken,
  paymentsTestApi,
  usePayments,
} from '../../../tests/support/modules/payments.ts'
import { failingPayoutDestinations, sandboxEvent } from './gateways/sandbox.ts'
import { createStripeGateway } from './gateways/stripe.ts'
import { createPayouts } from './payouts.ts'

// Payout reconciliation (issue 17's gap, decision 250) on both databases: the gateway paid (or
// refused) but our commit never happened, so the payout stays requested with its money in flight.
// The sweeper asks the gateway again by our payout id and settles it once, however many sweeps
// (instances) run, one after another or at the same moment, with late gateway events in between.
const RUNS = Number(process.env.PAYMENTS_RUNS ?? 5)
const GOOD_IBAN = 'DE89 3704 0044 0532 0130 00'
type T = ReturnType<typeof paymentsTestApi>
type U = { id: number; token: string }

for (const dialect of dialects) {
  describe(`payout reconciliation on ${dialect}`, () => {
    const s = usePayments(dialect)
    const t = {
      call: (...a: Parameters<T['call']>) => s.t.call(...a),
      raw: (...a: Parameters<T['raw']>) => s.t.raw(...a),
      user: (...a: Parameters<T['user']>) => s.t.user(...a),
    }
    const balance = async (u: U) =>
      (
        (await t.call('GET', 'Payment/balances', { token: u.token })).json.data as Array<{
          availableMinor: number
          paidOutMinor: number
        }>
      )[0]
    const method = async (u: U, body: Record<string, unknown>) =>
      (
        await t.call('POST', 'freelancers/AddFreelancerPaymentMethod', {
          token: u.token,
          body: { holderName: 'Fran Engineer', ...body },
        })
      ).json.id as number
    async function earn(f: U, amount: number) {
      const c = await contractFor(t.call, s.database, s.client, f, [amount])
      await fund(t.call, s.client, c.projectId, [c.installments[0].id])
      await t.call('POST', `projects/installments/${c.installments[0].id}/submit`, {
        token: f.token,
        body: { note: 'Done.' },
      })
      await t.call('POST', `projects/installments/${c.installments[0].id}/approve`, {
        token: s.client.token,
        body: {},
      })
    }
    const crashedPayout = async (f: U, methodId: number, amountMinor: number) => {
      const asked = await createPayouts({
        db: s.database.db,
        dialect,
        gateway: answerLost(s.t.api.services.sandboxGateway),
        minimumMinor: 2000,
      }).request({ userId: f.id } as never, { amountMinor, currency: 'EUR', paymentMethodId: methodId })
      expect(asked.status).toBe('requested')
      return asked.id
    }
    /** A sweeper instance, as each server process has one. */
    const instance = () =>
      createPayouts({
        db: s.database.db,
        dialect,
        gateway: s.t.api.services.sandboxGateway,
        minimumMinor: 2000,
      })
    const later = () => new Date(Date.now() + 11 * 60_000)
    const refs = async (id: number) =>
      (
        await s.database.db
          .selectFrom('ledger_transaction')
          .select('ref')
          .where('ref', 'like', `payout%:${id}`)
          .orderBy('id')
          .execute()
      ).map((r) => r.ref)

    test('a payout paid at the gateway whose commit never happened is completed once by two sweeps at once and a third after', async () => {
      const f = await t.user('freelancer', 'Cai', 'Crash')
      await earn(f, 50000)
      const bank = await method(f, { kind: 'bank', iban: GOOD_IBAN })
      const id = await crashedPayout(f, bank, 30000)
      expect(await balance(f)).toMatchObject({ availableMinor: 15000, paidOutMinor: 0 })
      // Too recent to be stuck: a request still on its way is left alone.
      expect(await instance().sweep()).toEqual({ settled: 0 })
      const [a, b] = await Promise.all([instance().sweep(later()), instance().sweep(later())])
      expect(a.settled + b.settled).toBe(1)
      expect(await instance().sweep(later())).toEqual({ settled: 0 })
      expect(await balance(f)).toMatchObject({ availableMinor: 15000, paidOutMinor: 30000 })
      expect(await refs(id)).toEqual([`payout:${id}`, `payout-paid:${id}`])
      expect((await t.call('GET', 'Payment/payouts', { token: f.token })).json.data[0]).toMatchObject({
        id,
        status: 'paid',
      })
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('a payout the gateway refused whose commit never happened is failed once: a reversal returns the money to available', async () => {
      const f = await t.user('freelancer', 'Rea', 'Refused')
      await earn(f, 40000)
      const failing = await method(f, { kind: 'bank', iban: failingPayoutDestinations.iban })
      const id = await crashedPayout(f, failing, 20000)
      await Promise.all([instance().sweep(later()), instance().sweep(later()), instance().sweep(later())])
      await instance().sweep(later())
      expect(await balance(f)).toMatchObject({ availableMinor: 36000, paidOutMinor: 0 })
      expect(await refs(id)).toEqual([`payout:${id}`, `payout-failed:${id}`])
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test("property: crashed payouts, sweeps from several instances and late gateway events in any interleaving move each payout's money once", async () => {
      const f = await t.user('freelancer', 'Ivo', 'Interleaved')
      await earn(f, 200000)
      const good = await method(f, { kind: 'bank', iban: GOOD_IBAN })
      const bad = await method(f, { kind: 'paypal', email: failingPayoutDestinations.paypal })
      const secret = await s.t.api.services.sandboxGateway.secret()
      const step = fc.oneof(
        fc.record({ sweeps: fc.integer({ min: 1, max: 3 }) }),
        fc.record({ event: fc.nat(5), succeeded: fc.boolean() }),
      )
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ amount: fc.integer({ min: 2000, max: 6000 }), fails: fc.boolean() }), {
            minLength: 1,
            maxLength: 4,
          }),
          fc.array(step, { minLength: 1, maxLength: 5 }),
          async (asks, steps) => {
            const before = await balance(f)
            const ids: number[] = []
            for (const a of asks) ids.push(await crashedPayout(f, a.fails ? bad : good, a.amount))
            // Each step runs at the same time as the next: sweeps and late signed events race.
            const racing = steps.map((st) => {
              if ('sweeps' in st)
                return Promise.all(Array.from({ length: st.sweeps }, () => instance().sweep(later())))
              const n = st.event % ids.length
              const e = sandboxEvent(secret, st.succeeded ? 'payout.succeeded' : 'payout.failed', {
                paymentToken: String(ids[n]),
                amountMinor: asks[n].amount,
                currency: 'EUR',
              })
              return t.raw('POST', 'Payment/PaymentCallback', { body: e.body, headers: e.headers })
            })
            await Promise.all(racing)
            await instance().sweep(later())
            const rows = await s.database.db
              .selectFrom('payout')
              .select(['id', 'status', 'amount_minor'])
              .where('id', 'in', ids)
              .execute()
            expect(rows.every((r) => r.status !== 'requested')).toBe(true)
            for (const id of ids) expect((await refs(id)).length).toBe(2)
            const paid = rows
              .filter((r) => r.status === 'paid')
              .reduce((sum, r) => sum + Number(r.amount_minor), 0)
            const after = await balance(f)
            expect(after.paidOutMinor).toBe(before.paidOutMinor + paid)
            expect(after.availableMinor).toBe(before.availableMinor - paid)
            expect(await ledgerBroken(s.database)).toEqual([])
          },
        ),
        { numRuns: RUNS },
      )
    })
  })
}

describe('Stripe answers what became of a payout by our payout id', () => {
  let fake: Awaited<ReturnType<typeof startStripeStandIn>>
  beforeAll(async () => {
    fake = await startStripeStandIn()
  })
  afterAll(() => fake?.stop())

  test('a transfer made earlier is found by its group; one never made is null, so reconciliation asks for it with the same key', async () => {
    const gateway = createStripeGateway({
      secretKey: STAND_IN_SECRET_KEY,
      webhookSecret: STAND_IN_WEBHOOK_SECRET,
      publicUrl: 'http://localhost:3000',
      apiUrl: fake.base,
    })
    const made = await gateway.payout({
      payoutId: '41',
      amountMinor: 9000,
      currency: 'EUR',
      destination: { kind: 'stripe_account', ref: 'acct_1Freelancer' },
    })
    expect(await gateway.findPayout!('41')).toEqual({ status: 'succeeded', gatewayRef: made.gatewayRef })
    expect(await gateway.findPayout!('42')).toBeNull()
    expect(fake.sent.at(-1)).toMatchObject({ method: 'GET', path: '/v1/transfers' })
  })
})
