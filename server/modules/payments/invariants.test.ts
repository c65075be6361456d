import fc from 'fast-check'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Db } from '#server/db/database.ts'
import { dialects } from '../../../tests/integration/databases.ts'
import {
  card,
  contractFor,
  fund,
  ledgerBroken,
  paymentsTestApi,
  usePayments,
} from '../../../tests/support/modules/payments.ts'
import { sandboxEvent, testCards } from './gateways/sandbox.ts'
import { account, LedgerError, post } from './ledger.ts'
import { feeOf } from './fees.ts'

// The ledger's invariants as properties (fast-check), on SQLite and PostgreSQL, through the real
// API: every transaction balances, each currency sums to zero, no account that must not go
// negative does; a callback replayed any number of times in any order credits once; concurrent
// releases move money once; amounts are the contract's, whatever the browser sends.
const RUNS = Number(process.env.PAYMENTS_RUNS ?? 8)

for (const dialect of dialects) {
  describe(`payments invariants on ${dialect}`, () => {
    const s = usePayments(dialect)
    let database: Db
    let t: ReturnType<typeof paymentsTestApi>
    type U = Awaited<ReturnType<typeof t.user>>
    let client: U, freelancer: U
    beforeAll(() => {
      ;({ database, t, client, freelancer } = s)
    })

    const captures = async (projectId: number) =>
      (
        await database.db
          .selectFrom('ledger_transaction as lt')
          .innerJoin('contract as c', 'c.id', 'lt.contract_id')
          .select('lt.id')
          .where('c.project_id', '=', projectId)
          .where('lt.kind', '=', 'capture')
          .execute()
      ).length
    const available = async () =>
      (await t.call('GET', 'Payment/balances', { token: freelancer.token })).json.data[0]?.availableMinor ?? 0

    let fresh = 0
    test('a posting that does not balance, or spends money an account does not have, is refused whole', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.integer({ min: -10_000, max: 10_000 }).filter((n) => n !== 0),
            { minLength: 2, maxLength: 5 },
          ),
          fc.boolean(),
          async (drawn, balance) => {
            const before = await database.db
              .selectFrom('ledger_entry')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
            // A fresh credit-normal account each run, so only this posting decides whether it goes below zero.
            const owed = { ...account.fees('EUR'), owner: `property-${++fresh}` }
            const lines = drawn.map((amountMinor, n) => ({
              account: n % 2 ? owed : account.clearing('sandbox', 'EUR'),
              amountMinor,
            }))
            // Half the runs are balanced by a last line to clearing (random lines alone almost never are).
            const off = drawn.reduce((s, a) => s + a, 0)
            if (balance && off !== 0)
              lines.push({ account: account.clearing('sandbox', 'EUR'), amountMinor: -off })
            const sum = lines.reduce((s, l) => s + l.amountMinor, 0)
            const outcome = await database.db
              .transaction()
              .execute((trx) => post(trx, dialect, { kind: 'reversal', ref: `property:${fresh}`, lines }))
              .then(
                () => 'posted',
                (e) => (e instanceof LedgerError ? 'refused' : Promise.reject(e)),
              )
            const owedNet = lines.filter((l) => l.account === owed).reduce((s, l) => s + l.amountMinor, 0)
            expect(outcome).toBe(sum === 0 && owedNet <= 0 ? 'posted' : 'refused')
            const after = await database.db
              .selectFrom('ledger_entry')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
            expect(Number(after.n) - Number(before.n)).toBe(outcome === 'posted' ? lines.length : 0)
            expect(await ledgerBroken(database)).toEqual([])
          },
        ),
        { numRuns: RUNS * 4 },
      )
    })

    test('gateway events replayed any number of times, in any order, some at once, credit once', async () => {
      const secret = await t.api.services.sandboxGateway.secret()
      const kinds = fc.constantFrom(
        'payment.succeeded',
        'payment.failed',
        'payment.requires_action',
      ) as fc.Arbitrary<'payment.succeeded' | 'payment.failed' | 'payment.requires_action'>
      await fc.assert(
        fc.asyncProperty(
          fc.array(kinds, { minLength: 1, maxLength: 4 }),
          fc.array(fc.nat(), { minLength: 1, maxLength: 10 }),
          fc.integer({ min: 1, max: 3 }),
          async (types, picks, width) => {
            const c = await contractFor(t.call, database, client, freelancer, [70000])
            const paid = await t.call('POST', 'Payment/PayProjectInstallments', {
              token: client.token,
              body: { projectId: c.projectId, installmentIds: [c.installments[0].id] },
            })
            const events = types.map((type) =>
              sandboxEvent(secret, type, {
                paymentToken: paid.json.token,
                amountMinor: paid.json.totalMinor,
                currency: 'EUR',
                failure: type === 'payment.failed' ? 'card_declined' : undefined,
              }),
            )
            const order = picks.map((p) => events[p % events.length])
            for (let n = 0; n < order.length; n += width) {
              const answers = await Promise.all(
                order
                  .slice(n, n + width)
                  .map((e) => t.raw('POST', 'Payment/PaymentCallback', { body: e.body, headers: e.headers })),
              )
              expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200))
            }
            const succeeded = order.some((e) => JSON.parse(e.body).type === 'payment.succeeded')
            expect(await captures(c.projectId)).toBe(succeeded ? 1 : 0)
            const status = (
              await database.db
                .selectFrom('installment')
                .select('status')
                .where('id', '=', c.installments[0].id)
                .executeTakeFirstOrThrow()
            ).status
            expect(status).toBe(succeeded ? 'funded' : 'pending')
            expect(
              (await t.call('GET', `projects/${c.projectId}/paid-details`, { token: client.token })).json
                .heldMinor,
            ).toBe(succeeded ? 72100 : 0)
            expect(await ledgerBroken(database)).toEqual([])
          },
        ),
        { numRuns: RUNS },
      )
    })

    test('any installments, fees and cards: what is held, released and earned adds up, and the rules hold after every step', async () => {
      const cards = fc.constantFrom(testCards.succeeds, testCards.declined, testCards.confirm)
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 50_000_000 }), { minLength: 1, maxLength: 3 }),
          fc.array(fc.tuple(cards, fc.boolean()), { minLength: 1, maxLength: 3 }),
          async (amounts, plan) => {
            const c = await contractFor(t.call, database, client, freelancer, amounts)
            const before = await available()
            let expected = 0
            for (const [n, i] of c.installments.entries()) {
              const [number, approve] = plan[n % plan.length]
              const paid = await fund(t.call, client, c.projectId, [i.id], number)
              if (number === testCards.confirm)
                await t.call('POST', `Payment/sandbox/${paid.payment.token}/confirm`, { body: { approve } })
              if (number === testCards.declined) continue
              if (number === testCards.confirm && !approve) continue
              await t.call('POST', `projects/installments/${i.id}/submit`, {
                token: freelancer.token,
                body: { note: 'Done' },
              })
              if (approve) {
                expect(
                  (
                    await t.call('POST', `projects/installments/${i.id}/approve`, {
                      token: client.token,
                      body: {},
                    })
                  ).json.installments[n].status,
                ).toBe('released')
                expected += i.amountMinor - feeOf(i.amountMinor, 1000)
              }
              expect(await ledgerBroken(database)).toEqual([])
            }
            expect((await available()) - before).toBe(expected)
            const details = (
              await t.call('GET', `projects/${c.projectId}/paid-details`, { token: freelancer.token })
            ).json
            expect(details.paidMinor).toBe(
              details.heldMinor + details.releasedMinor + details.platformFeesMinor,
            )
          },
        ),
        { numRuns: RUNS },
      )
    })

    test('two (or four) concurrent releases of one installment move the money once', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 100, max: 10_000_000 }),
          fc.integer({ min: 2, max: 4 }),
          async (amount, racers) => {
            const c = await contractFor(t.call, database, client, freelancer, [amount])
            const i = c.installments[0]
            await fund(t.call, client, c.projectId, [i.id])
            await t.call('POST', `projects/installments/${i.id}/submit`, {
              token: freelancer.token,
              body: { note: 'Done' },
            })
            const before = await available()
            const runs = Array.from({ length: racers }, (_, n) =>
              n % 2
                ? t.api.services.projects.releaseInstallment(i.id).then(
                    () => 200,
                    (e) => e.status ?? 500,
                  )
                : t
                    .call('POST', `projects/installments/${i.id}/approve`, { token: client.token, body: {} })
                    .then((r) => r.status),
            )
            const statuses = await Promise.all(runs)
            expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1)
            expect(statuses.every((s) => s === 200 || s === 409)).toBe(true)
            expect((await available()) - before).toBe(amount - feeOf(amount, 1000))
            const releases = await database.db
              .selectFrom('ledger_transaction')
              .select('id')
              .where('installment_id', '=', i.id)
              .where('kind', '=', 'release')
              .execute()
            expect(releases).toHaveLength(1)
            expect(await ledgerBroken(database)).toEqual([])
          },
        ),
        { numRuns: RUNS },
      )
    })

    test("amounts are never the browser's: any other total is refused and changes nothing; any amount fields are ignored", async () => {
      const c = await contractFor(t.call, database, client, freelancer, [33333, 44444])
      const ids = c.installments.map((i) => i.id)
      const total = 33333 + 44444 + feeOf(33333, 300) + feeOf(44444, 300)
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 1e9 }).filter((n) => n !== total),
          fc.integer({ min: -1e6, max: 1e9 }),
          async (claimed, amount) => {
            const count = async () =>
              Number(
                (
                  await database.db
                    .selectFrom('payment')
                    .select((eb) => eb.fn.countAll<number>().as('n'))
                    .executeTakeFirstOrThrow()
                ).n,
              )
            const before = await count()
            const refused = await t.call('POST', 'Payment/PayProjectInstallments', {
              token: client.token,
              body: { projectId: c.projectId, installmentIds: ids, totalMinor: claimed },
            })
            expect(refused.status).toBe(409)
            expect(await count()).toBe(before)
            const priced = await t.call('POST', 'Payment/PayProjectInstallments', {
              token: client.token,
              body: {
                projectId: c.projectId,
                installmentIds: ids,
                amountMinor: amount,
                feeMinor: amount,
                total: amount,
              },
            })
            expect(priced.json.totalMinor).toBe(total)
            const session = await t.call('GET', `Payment/sandbox/${priced.json.token}`)
            expect(session.json.totalMinor).toBe(total)
          },
        ),
        { numRuns: RUNS },
      )
      // The last checkout, paid, holds exactly the contract's total.
      const last = await database.db
        .selectFrom('payment')
        .select('token')
        .where('contract_id', '=', c.contractId)
        .where('status', '=', 'open')
        .executeTakeFirstOrThrow()
      await t.call('POST', `Payment/sandbox/${last.token}/pay`, { body: card() })
      expect(
        (await t.call('GET', `projects/${c.projectId}/paid-details`, { token: client.token })).json.heldMinor,
      ).toBe(total)
    })
  })
}
