import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import {
  contractFor,
  fund,
  ledgerBroken,
  paymentsTestApi,
  usePayments,
} from '../../../tests/support/modules/payments.ts'
import { failingPayoutDestinations, sandboxEvent, SANDBOX } from './gateways/sandbox.ts'
import { createPayouts } from './payouts.ts'
import type { Movement } from './invoices-contract.ts'
import { locales } from '#server/db/schema.ts'

// Payouts (issue 17 item 6, decisions 185–187) on both databases, through the real API and the
// sandbox gateway: a freelancer withdraws released money to a payment method; a failing test
// destination returns it to available; every refusal is a 400 naming the field and changes
// nothing; concurrent payouts never overdraw; as a property, payouts keep the ledger's rules.
const RUNS = Number(process.env.PAYMENTS_RUNS ?? 6)
const wordsOf = (lang: string) =>
  JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dirname, `../../../locales/${lang}/invoices.json`), 'utf8'),
  ) as {
    movement: Record<string, string>
  }
const GOOD_IBAN = 'DE89 3704 0044 0532 0130 00'
type T = ReturnType<typeof paymentsTestApi>

for (const dialect of dialects) {
  describe(`payouts on ${dialect}`, () => {
    const s = usePayments(dialect)
    type U = { id: number; token: string }
    const t = {
      call: (...a: Parameters<T['call']>) => s.t.call(...a),
      raw: (...a: Parameters<T['raw']>) => s.t.raw(...a),
      user: (...a: Parameters<T['user']>) => s.t.user(...a),
    }

    const balances = async (u: U) =>
      (await t.call('GET', 'Payment/balances', { token: u.token })).json.data as Array<{
        currency: string
        availableMinor: number
        paidOutMinor: number
        earnedMinor: number
      }>
    const count = async (table: 'ledger_entry' | 'payout') =>
      Number(
        (
          await s.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const method = async (u: U, body: Record<string, unknown>) => {
      const r = await t.call('POST', 'freelancers/AddFreelancerPaymentMethod', {
        token: u.token,
        body: { holderName: 'Fran Engineer', ...body },
      })
      if (r.status !== 200) throw new Error(r.text)
      return r.json.id as number
    }
    const withdraw = (u: U, paymentMethodId: number, amountMinor: unknown, currency = 'EUR') =>
      t.call('POST', 'Payment/payouts', { token: u.token, body: { amountMinor, currency, paymentMethodId } })
    /** A contract of these amounts funded, submitted and approved: the freelancer gets 90 % of each. */
    async function release(f: U, amounts: number[]) {
      const c = await contractFor(t.call, s.database, s.client, f, amounts)
      await fund(
        t.call,
        s.client,
        c.projectId,
        c.installments.map((i) => i.id),
      )
      for (const i of c.installments) {
        expect(
          (
            await t.call('POST', `projects/installments/${i.id}/submit`, {
              token: f.token,
              body: { note: 'Calculations attached.' },
            })
          ).status,
        ).toBe(200)
        expect(
          (await t.call('POST', `projects/installments/${i.id}/approve`, { token: s.client.token, body: {} }))
            .status,
        ).toBe(200)
      }
    }
    /** The user's statement: each row's movement must read in words in every language (no "Movement (payout)"). */
    const statementOf = async (u: U) => {
      const rows = (await t.call('GET', 'Payment/statements?pageSize=1000', { token: u.token })).json
        .data as Movement[]
      for (const r of rows)
        for (const lang of locales)
          expect(wordsOf(lang).movement, `${lang}: ${r.movement}_${r.account}`).toHaveProperty(
            `${r.movement}_${r.account}`,
          )
      return rows.map((r) => ({
        movement: r.movement,
        amountMinor: r.amountMinor,
        priceMinor: r.priceMinor,
        feeMinor: r.feeMinor,
        withdrawal: r.withdrawal,
        balanceMinor: r.balanceMinor,
      }))
    }
    const notified = async (u: U, key: string) => {
      for (let n = 0; n < 100; n++) {
        const row = await s.database.db
          .selectFrom('notification')
          .select(['params', 'type'])
          .where('user_id', '=', u.id)
          .where('message_key', '=', key)
          .executeTakeFirst()
        if (row) return row
        await new Promise((r) => setTimeout(r, 50))
      }
      throw new Error(`no ${key} notification`)
    }

    test('a freelancer withdraws released money to a bank account: paid at once, available goes down, paid out goes up, and they are told', async () => {
      await release(s.freelancer, [100000])
      const bank = await method(s.freelancer, { kind: 'bank', iban: GOOD_IBAN })
      const before = await t.call('GET', 'Payment/payouts', { token: s.freelancer.token })
      expect(before.json).toEqual({
        minimumMinor: 2000,
        balances: [{ currency: 'EUR', availableMinor: 90000 }],
        data: [],
      })
      const paid = await withdraw(s.freelancer, bank, 50000)
      expect(paid.status, paid.text).toBe(200)
      expect(paid.json).toMatchObject({
        status: 'paid',
        amountMinor: 50000,
        currency: 'EUR',
        destinationKind: 'bank',
        failure: null,
      })
      expect(paid.json.destination).not.toContain('3704 0044')
      expect(await balances(s.freelancer)).toEqual([
        { currency: 'EUR', heldMinor: 0, availableMinor: 40000, earnedMinor: 90000, paidOutMinor: 50000 },
      ])
      const after = (await t.call('GET', 'Payment/payouts', { token: s.freelancer.token })).json
      expect(after.balances).toEqual([{ currency: 'EUR', availableMinor: 40000 }])
      expect(after.data.map((p: { status: string }) => p.status)).toEqual(['paid'])
      // Another user sees none of it.
      expect((await t.call('GET', 'Payment/payouts', { token: s.client.token })).json).toMatchObject({
        balances: [],
        data: [],
      })
      // The statement: the release with its price and commission, then the withdrawal once, paid;
      // the money on its way to the bank is never a second movement or a credit.
      expect((await statementOf(s.freelancer)).slice(-2)).toEqual([
        {
          movement: 'release',
          amountMinor: 90000,
          priceMinor: 100000,
          feeMinor: 10000,
          withdrawal: null,
          balanceMinor: 90000,
        },
        {
          movement: 'payout',
          amountMinor: -50000,
          priceMinor: null,
          feeMinor: null,
          withdrawal: 'paid',
          balanceMinor: 40000,
        },
      ])
      const note = await notified(s.freelancer, 'payouts:notify.payoutPaid')
      expect(note.type).toBe('Payment')
      // The amount is a fact; each reader's notification says it as money in their language.
      expect(JSON.parse(note.params)).toMatchObject({ amountMinor: 50000, currency: 'EUR' })
      const bell = async (lang: string) =>
        (
          (await t.call('GET', `notifications?lang=${lang}`, { token: s.freelancer.token })).json
            .data as Array<{
            content: string
          }>
        ).map((n) => n.content)
      expect((await bell('en')).find((c) => c.includes('was paid out'))).toMatch(/^€500\.00 was paid out to /)
      expect((await bell('de')).find((c) => c.includes('ausgezahlt'))).toMatch(/^500,00\s€ wurden an /)
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('a payout to the failing test destination fails and a reversing transaction returns the money to available', async () => {
      const f = await t.user('freelancer', 'Fay', 'Failing')
      await release(f, [40000])
      const failing = await method(f, { kind: 'paypal', email: failingPayoutDestinations.paypal })
      const failed = await withdraw(f, failing, 30000)
      expect(failed.status, failed.text).toBe(200)
      expect(failed.json).toMatchObject({
        status: 'failed',
        failure: 'destination_refused',
        destinationKind: 'paypal',
      })
      expect((await balances(f))[0]).toMatchObject({ availableMinor: 36000, paidOutMinor: 0 })
      const moves = await s.database.db
        .selectFrom('ledger_transaction')
        .select(['id', 'kind', 'reverses_id'])
        .where('ref', 'in', [`payout:${failed.json.id}`, `payout-failed:${failed.json.id}`])
        .orderBy('id')
        .execute()
      expect(moves.map((m) => m.kind)).toEqual(['payout', 'reversal'])
      expect(moves[1].reverses_id).toBe(moves[0].id)
      // The statement: the withdrawal left the balance, was not paid, and came back.
      expect(
        (await statementOf(f)).map((r) => [r.movement, r.amountMinor, r.withdrawal, r.balanceMinor]),
      ).toEqual([
        ['release', 36000, null, 36000],
        ['payout', -30000, 'returned', 6000],
        ['reversal', 30000, null, 36000],
      ])
      await notified(f, 'payouts:notify.payoutFailed')
      // A late or repeated gateway event about a settled payout changes nothing.
      const secret = await s.t.api.services.sandboxGateway.secret()
      const late = sandboxEvent(secret, 'payout.succeeded', {
        paymentToken: String(failed.json.id),
        amountMinor: 30000,
        currency: 'EUR',
      })
      const sent = await t.raw('POST', 'Payment/PaymentCallback', { body: late.body, headers: late.headers })
      expect(sent.status).toBe(200)
      expect(await sent.json()).toEqual({ received: true, applied: false })
      expect((await balances(f))[0]).toMatchObject({ availableMinor: 36000, paidOutMinor: 0 })
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test("more than available, under the minimum, not whole minor units, another user's or an inactive method: 400 naming the field, nothing changes", async () => {
      const f = await t.user('freelancer', 'Rui', 'Refused')
      await release(f, [20000])
      const mine = await method(f, { kind: 'bank', iban: GOOD_IBAN })
      const spare = await method(f, { kind: 'paypal', email: 'rui.refused@example.com' })
      expect(
        (
          await t.call('PUT', `freelancers/UpdatePaymentMethodStatus/${spare}`, {
            token: f.token,
            body: { status: 'inactive' },
          })
        ).status,
      ).toBe(200)
      const othersMethod = await method(s.freelancer, { kind: 'paypal', email: 'fran.other@example.com' })
      const [entries, payouts] = [await count('ledger_entry'), await count('payout')]
      const cases: Array<[unknown, number, string]> = [
        [18001, mine, 'amountMinor'],
        [1999, mine, 'amountMinor'],
        [5000.5, mine, 'amountMinor'],
        ['5000', mine, 'amountMinor'],
        [5000, othersMethod, 'paymentMethodId'],
        [5000, spare, 'paymentMethodId'],
      ]
      for (const [amount, methodId, field] of cases) {
        const r = await withdraw(f, methodId, amount)
        expect(r.status, `${amount} → ${r.text}`).toBe(400)
        expect(Object.keys(r.json.errors)).toEqual([field])
      }
      const usd = await withdraw(f, mine, 5000, 'USD')
      expect(Object.keys(usd.json.errors)).toEqual(['amountMinor'])
      expect(await count('ledger_entry')).toBe(entries)
      expect(await count('payout')).toBe(payouts)
      expect((await balances(f))[0].availableMinor).toBe(18000)
    })

    test('a gateway that does not answer leaves the payout requested and the money in flight; its later signed event settles it once', async () => {
      const f = await t.user('freelancer', 'Lea', 'Late')
      await release(f, [30000])
      const bank = await method(f, { kind: 'bank', iban: GOOD_IBAN })
      // The only stand-in here: a gateway whose answer is lost on the way (a timeout, a crash).
      const silent = {
        ...s.t.api.services.sandboxGateway,
        name: SANDBOX,
        payout: () => Promise.reject(new Error('connection reset')),
      }
      const payouts = createPayouts({ db: s.database.db, dialect, gateway: silent, minimumMinor: 2000 })
      const asked = await payouts.request({ userId: f.id } as never, {
        amountMinor: 20000,
        currency: 'EUR',
        paymentMethodId: bank,
      })
      expect(asked.status).toBe('requested')
      expect((await balances(f))[0]).toMatchObject({ availableMinor: 7000, paidOutMinor: 0 })
      const pending = await statementOf(f)
      expect(pending.map((r) => [r.movement, r.amountMinor, r.withdrawal, r.balanceMinor])).toEqual([
        ['release', 27000, null, 27000],
        ['payout', -20000, 'pending', 7000],
      ])
      const secret = await s.t.api.services.sandboxGateway.secret()
      const paid = sandboxEvent(secret, 'payout.succeeded', {
        paymentToken: String(asked.id),
        amountMinor: 20000,
        currency: 'EUR',
      })
      const send = async (e: { body: string; headers: Record<string, string> }) =>
        (await t.raw('POST', 'Payment/PaymentCallback', { body: e.body, headers: e.headers })).json()
      expect(await send(paid)).toEqual({ received: true, applied: true })
      expect(await send(paid)).toEqual({ received: true, applied: false })
      // A contradicting late event (another id) changes nothing either: paid is final.
      expect(
        await send(
          sandboxEvent(secret, 'payout.failed', {
            paymentToken: String(asked.id),
            amountMinor: 20000,
            currency: 'EUR',
          }),
        ),
      ).toEqual({ received: true, applied: false })
      expect((await balances(f))[0]).toMatchObject({ availableMinor: 7000, paidOutMinor: 20000 })
      expect((await t.call('GET', 'Payment/payouts', { token: f.token })).json.data[0]).toMatchObject({
        id: asked.id,
        status: 'paid',
      })
      // Paid by the bank: the same one row, now paid, and no other movement.
      expect((await statementOf(f)).map((r) => [r.movement, r.withdrawal, r.balanceMinor])).toEqual([
        ['release', null, 27000],
        ['payout', 'paid', 7000],
      ])
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('concurrent payouts cannot overdraw: of five asking for more than half, one is paid', async () => {
      const f = await t.user('freelancer', 'Cora', 'Concurrent')
      await release(f, [50000])
      const bank = await method(f, { kind: 'bank', iban: GOOD_IBAN })
      const answers = await Promise.all(Array.from({ length: 5 }, () => withdraw(f, bank, 25000)))
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400])
      expect((await balances(f))[0]).toMatchObject({ availableMinor: 20000, paidOutMinor: 25000 })
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('property: any payouts, concurrent, to good and failing methods, never make available negative and keep every currency at zero', async () => {
      const f = await t.user('freelancer', 'Pia', 'Property')
      await release(f, [60000, 40000])
      const good = await method(f, { kind: 'bank', iban: GOOD_IBAN })
      const bad = await method(f, { kind: 'bank', iban: failingPayoutDestinations.iban })
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ amount: fc.integer({ min: 1000, max: 40000 }), fails: fc.boolean() }), {
            minLength: 1,
            maxLength: 6,
          }),
          async (asks) => {
            const before = (await balances(f))[0]
            const answers = await Promise.all(asks.map((a) => withdraw(f, a.fails ? bad : good, a.amount)))
            for (const a of answers) expect([200, 400]).toContain(a.status)
            const paid = answers
              .filter((a) => a.status === 200 && a.json.status === 'paid')
              .reduce((sum, a) => sum + a.json.amountMinor, 0)
            const after = (await balances(f))[0]
            expect(after.availableMinor).toBeGreaterThanOrEqual(0)
            expect(after.availableMinor).toBe(before.availableMinor - paid)
            expect(after.paidOutMinor).toBe(before.paidOutMinor + paid)
            expect(after.availableMinor + after.paidOutMinor).toBe(90000)
            expect(await ledgerBroken(s.database)).toEqual([])
          },
        ),
        { numRuns: RUNS },
      )
    })
  })
}
