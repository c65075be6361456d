import fc from 'fast-check'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Db } from '#server/db/database.ts'
import { portableDialects } from '../../../../tests/integration/databases.ts'
import {
  contractFor,
  fund,
  installmentRows,
  ledgerBroken,
  paymentsTestApi,
  submitAndApprove,
  usePayments,
} from '../../../../tests/support/modules/payments.ts'

// Issue 40's "done when": the ledger's invariants (ledgerBroken, the checks of the payments'
// property tests) hold after any sequence of accepted change orders that add, change, reduce and
// remove installments, some of them funded; the contract's value stays the sum of its installments,
// what is held for each funded installment is its price (nothing for a removed one), so releasing
// them all pays exactly that.
const RUNS = Number(process.env.PAYMENTS_RUNS ?? 8)

type Move =
  | { kind: 'add'; amount: number }
  | { kind: 'change'; pick: number; amount: number }
  | { kind: 'reduce'; pick: number; by: number }
  | { kind: 'remove'; pick: number }
  | { kind: 'fund'; pick: number }
const moves: fc.Arbitrary<Move> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), amount: fc.integer({ min: 1, max: 5_000_000 }) }),
  fc.record({
    kind: fc.constant('change' as const),
    pick: fc.nat(),
    amount: fc.integer({ min: 1, max: 5_000_000 }),
  }),
  fc.record({
    kind: fc.constant('reduce' as const),
    pick: fc.nat(),
    by: fc.integer({ min: 1, max: 5_000_000 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('fund' as const), pick: fc.nat() }),
)

for (const dialect of portableDialects) {
  describe(`change orders keep the ledger whole on ${dialect}`, () => {
    const s = usePayments(dialect)
    let database: Db
    let t: ReturnType<typeof paymentsTestApi>
    type U = Awaited<ReturnType<typeof t.user>>
    let client: U, freelancer: U
    beforeAll(() => {
      ;({ database, t, client, freelancer } = s)
    })

    const rows = (contractId: number) => installmentRows(database, contractId)
    const held = (installmentId: number) =>
      database.db
        .selectFrom('payment_installment as pi')
        .innerJoin('installment as i', 'i.id', 'pi.installment_id')
        .select((eb) => eb(eb.ref('pi.amount_minor'), '-', eb.ref('i.refunded_minor')).as('left'))
        .where('pi.installment_id', '=', installmentId)
        .where('pi.applied', '=', 1)
        .executeTakeFirst()

    /** One move: an effect proposed by either party and accepted by the other, or a funding. Refusals must change nothing. */
    async function play(projectId: number, contractId: number, m: Move, n: number) {
      const list = await rows(contractId)
      const i = list['pick' in m ? m.pick % list.length : 0]!
      if (m.kind === 'fund') {
        if (i.status === 'pending') await fund(t.call, client, projectId, [i.id])
        return
      }
      const effect =
        m.kind === 'add'
          ? { kind: 'add', title: `Extra ${n}`, amountMinor: m.amount }
          : m.kind === 'change'
            ? { kind: 'change', installmentId: i.id, amountMinor: m.amount }
            : m.kind === 'reduce'
              ? { kind: 'reduce', installmentId: i.id, amountMinor: m.by }
              : { kind: 'remove', installmentId: i.id }
      const [by, other] = n % 2 ? [client, freelancer] : [freelancer, client]
      const before = await rows(contractId)
      const p = await t.call('POST', `projects/${projectId}/change-orders`, {
        token: by.token,
        body: { description: `Move ${n}`, reason: 'Property', effects: [effect] },
      })
      if (p.status !== 200) {
        expect([400, 409], p.text).toContain(p.status)
        expect(await rows(contractId)).toEqual(before)
        return
      }
      const a = await t.call('POST', `projects/${projectId}/change-orders/${p.json.id}/accept`, {
        token: other.token,
      })
      expect(a.status, a.text).toBe(200)
    }

    test('any sequence of added, changed, reduced and removed installments, funded or not', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 5_000_000 }), { minLength: 1, maxLength: 3 }),
          fc.array(moves, { minLength: 1, maxLength: 8 }),
          async (amounts, sequence) => {
            const c = await contractFor(t.call, database, client, freelancer, amounts)
            for (const [n, m] of sequence.entries()) {
              await play(c.projectId, c.contractId, m, n)
              expect(await ledgerBroken(database)).toEqual([])
              const list = await rows(c.contractId)
              const contract = await database.db
                .selectFrom('contract')
                .select('amount_minor')
                .where('id', '=', c.contractId)
                .executeTakeFirstOrThrow()
              expect(contract.amount_minor).toBe(list.reduce((sum, i) => sum + i.amount_minor, 0))
              for (const i of list.filter((row) => row.status === 'funded'))
                expect(Number((await held(i.id))?.left)).toBe(i.amount_minor)
              for (const i of list.filter((row) => row.status === 'removed')) {
                expect(i.amount_minor).toBe(0)
                expect(await held(i.id)).toBeUndefined()
              }
            }
            // Everything funded is released for exactly its price, and the ledger still balances.
            for (const i of (await rows(c.contractId)).filter((row) => row.status === 'funded'))
              expect((await submitAndApprove(t.call, client, freelancer, i.id)).status).toBe(200)
            expect(await ledgerBroken(database)).toEqual([])
          },
        ),
        { numRuns: RUNS },
      )
    })
  })
}
