import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { contractFor, fund, ledgerBroken, usePayments } from '../../../tests/support/modules/payments.ts'
import { refundHelpers } from '../../../tests/support/modules/refunds.ts'
import { sandboxEvent } from './gateways/sandbox.ts'
import { feeOf } from './fees.ts'
import { refundToken } from './refunds.ts'

// Refunds over time and under races on both databases, through the real API and the sandbox
// gateway (decisions 180–183): a request left unanswered past its deadline, concurrent accepts and a
// replayed refund event, a refund the gateway fails later, auto-release, and any sequence of moves
// keeping the ledger balanced. The requests themselves are in refunds.test.ts.
const RUNS = Number(process.env.PAYMENTS_RUNS ?? 6)
const DAY = 86_400_000

for (const dialect of dialects) {
  describe(`refunds over time and under races on ${dialect}`, () => {
    const s = usePayments(dialect)
    const { decide, balance, statusOf, count, ask, funded } = refundHelpers(s)

    test('a request left unanswered past its deadline can be disputed; a dispute decided all for the client refunds everything', async () => {
      const c = await funded([80000])
      const held = (await balance(s.client)).heldMinor
      const asked = await ask(s.client, c.projectId, c.i.id, 80000)
      await s.database.db
        .updateTable('refund_request')
        .set({ respond_by: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', asked.json.id)
        .execute()
      const listed = (
        await s.t.call('GET', `projects/${c.projectId}/refund-requests`, { token: s.client.token })
      ).json.data[0]
      expect(listed).toMatchObject({ status: 'open', overdue: true, canDispute: true })
      expect(
        (await s.t.call('POST', `refund-requests/${asked.json.id}/dispute`, { token: s.client.token })).json
          .status,
      ).toBe('disputed')
      const disputed = await s.t.call('GET', `projects/${c.projectId}/refund-requests`, {
        token: s.client.token,
      })
      const decided = await decide(disputed.json.data[0].complaintId, {
        outcome: 'refund',
        reason: 'No work was delivered',
      })
      expect(decided.status, decided.text).toBe(200)
      expect(await statusOf(c.i.id)).toBe('pending')
      expect((await balance(s.client)).heldMinor).toBe(held - 82400)
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('concurrent accepts move the money once; a refund event replayed is applied once and changes no money', async () => {
      const c = await funded([50000])
      const asked = await ask(s.client, c.projectId, c.i.id, 50000)
      const held = (await balance(s.client)).heldMinor
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          s.t.call('POST', `refund-requests/${asked.json.id}/accept`, { token: s.freelancer.token }),
        ),
      )
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409])
      expect((await balance(s.client)).heldMinor).toBe(held - 51500)
      const refunds = await s.database.db
        .selectFrom('ledger_transaction')
        .select('id')
        .where('installment_id', '=', c.i.id)
        .where('kind', '=', 'refund')
        .execute()
      expect(refunds).toHaveLength(1)
      const secret = await s.t.api.services.sandboxGateway.secret()
      const entries = await count('ledger_entry')
      const ok = sandboxEvent(secret, 'refund.succeeded', {
        paymentToken: refundToken(asked.json.id),
        amountMinor: 51500,
        currency: 'EUR',
      })
      const late = sandboxEvent(secret, 'refund.failed', {
        paymentToken: refundToken(asked.json.id),
        amountMinor: 51500,
        currency: 'EUR',
      })
      const replies = await Promise.all(
        [ok, ok, late, ok, late].map((e) =>
          s.t.raw('POST', 'Payment/PaymentCallback', { body: e.body, headers: e.headers }),
        ),
      )
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
      // The sandbox answered at once (succeeded is final): a late failure and every replay change nothing.
      expect(await count('ledger_entry')).toBe(entries)
      const wrong = sandboxEvent(secret, 'refund.succeeded', {
        paymentToken: refundToken(asked.json.id),
        amountMinor: 1,
        currency: 'EUR',
      })
      expect(
        (await s.t.raw('POST', 'Payment/PaymentCallback', { body: wrong.body, headers: wrong.headers }))
          .status,
      ).toBe(400)
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test("a refund the gateway reports failed later puts the money back in the client's held account", async () => {
      const c = await funded([30000])
      const asked = await ask(s.client, c.projectId, c.i.id, 10000)
      // As if the gateway had answered "pending": the final answer comes as an event.
      const gateway = s.t.api.services.sandboxGateway
      const refund = gateway.refund
      gateway.refund = async (r) => ({ status: 'pending', gatewayRef: `sbx_re_${r.refundId}` })
      const held = (await balance(s.client)).heldMinor
      try {
        expect(
          (await s.t.call('POST', `refund-requests/${asked.json.id}/accept`, { token: s.freelancer.token }))
            .json.gatewayStatus,
        ).toBe('pending')
      } finally {
        gateway.refund = refund
      }
      expect((await balance(s.client)).heldMinor).toBe(held - 10300)
      const failed = sandboxEvent(await gateway.secret(), 'refund.failed', {
        paymentToken: refundToken(asked.json.id),
        amountMinor: 10300,
        currency: 'EUR',
      })
      for (let n = 0; n < 2; n++)
        await s.t.raw('POST', 'Payment/PaymentCallback', { body: failed.body, headers: failed.headers })
      expect((await balance(s.client)).heldMinor).toBe(held)
      expect(
        (await s.t.call('GET', `projects/${c.projectId}/refund-requests`, { token: s.client.token })).json
          .data[0].gatewayStatus,
      ).toBe('failed')
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('auto-release: a submission unanswered for AUTO_RELEASE_DAYS is released once, even by two sweeps at once; younger ones and ones with a refund open wait', async () => {
      const a = await funded([40000], true)
      const b = await funded([40000], true)
      const young = await funded([40000], true)
      await ask(s.client, b.projectId, b.i.id, 1000)
      const old = new Date(Date.now() - 15 * DAY).toISOString()
      await s.database.db
        .updateTable('installment')
        .set({ updated_at: old })
        .where('id', 'in', [a.i.id, b.i.id])
        .execute()
      const earned = (await balance(s.freelancer)).availableMinor
      const refunds = s.t.api.services.refunds
      const [one, two] = await Promise.all([refunds.sweep(), refunds.sweep()])
      expect(one.released + two.released).toBe(1)
      expect(await statusOf(a.i.id)).toBe('released')
      expect(await statusOf(b.i.id)).toBe('submitted')
      expect(await statusOf(young.i.id)).toBe('submitted')
      expect((await balance(s.freelancer)).availableMinor - earned).toBe(40000 - feeOf(40000, 1000))
      const approvals = await s.database.db
        .selectFrom('project_activity')
        .select(['action', 'actor_id'])
        .where('entity', '=', 'installment')
        .where('entity_id', '=', a.i.id)
        .where('action', 'in', ['approve', 'release'])
        .execute()
      expect(approvals).toEqual([
        { action: 'approve', actor_id: null },
        { action: 'release', actor_id: null },
      ])
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('property: any sequence of fund, refund request, accept, decline, approve keeps the ledger balanced and never negative', async () => {
      type Step = {
        op: 'fund' | 'ask' | 'accept' | 'decline' | 'submit' | 'approve'
        n: number
        part: number
      }
      const step = fc.record({
        op: fc.constantFrom('fund', 'ask', 'accept', 'decline', 'submit', 'approve') as fc.Arbitrary<
          Step['op']
        >,
        n: fc.nat(1),
        part: fc.integer({ min: 1, max: 100 }),
      })
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 100, max: 5_000_000 }), { minLength: 2, maxLength: 2 }),
          fc.array(step, { minLength: 3, maxLength: 10 }),
          async (amounts, steps) => {
            const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, amounts)
            const heldBefore = (await balance(s.client)).heldMinor
            const availableBefore = (await balance(s.freelancer)).availableMinor
            for (const move of steps) {
              const i = c.installments[move.n]
              const open = async () =>
                (
                  await s.database.db
                    .selectFrom('refund_request')
                    .select('id')
                    .where('active_installment_id', '=', i.id)
                    .executeTakeFirst()
                )?.id
              if (move.op === 'fund')
                await fund(s.t.call, s.client, c.projectId, [i.id]).catch(() => undefined)
              if (move.op === 'ask')
                await ask(
                  s.client,
                  c.projectId,
                  i.id,
                  Math.max(1, Math.floor((i.amountMinor * move.part) / 100)),
                )
              if (move.op === 'accept' || move.op === 'decline') {
                const id = await open()
                if (id)
                  await s.t.call('POST', `refund-requests/${id}/${move.op}`, {
                    token: s.freelancer.token,
                    body: { reason: 'No' },
                  })
              }
              if (move.op === 'submit')
                await s.t.call('POST', `projects/installments/${i.id}/submit`, {
                  token: s.freelancer.token,
                  body: { note: 'Done' },
                })
              if (move.op === 'approve')
                await s.t.call('POST', `projects/installments/${i.id}/approve`, {
                  token: s.client.token,
                  body: {},
                })
              expect(await ledgerBroken(s.database)).toEqual([])
            }
            // Whatever happened, the money of this contract is accounted for: held + released + fees + refunded = captured.
            const moved = async (kind: string) =>
              Number(
                (
                  await s.database.db
                    .selectFrom('ledger_transaction as lt')
                    .innerJoin('ledger_entry as e', 'e.transaction_id', 'lt.id')
                    .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
                    .select((eb) => eb.fn.sum<number>('e.amount_minor').as('s'))
                    .where('lt.contract_id', '=', c.contractId)
                    .where('lt.kind', '=', kind)
                    .where('a.kind', '=', 'gateway_clearing')
                    .executeTakeFirst()
                )?.s ?? 0,
              )
            const captured = await moved('capture')
            const refunded = -(await moved('refund'))
            const heldNow = (await balance(s.client)).heldMinor - heldBefore
            const released = await s.database.db
              .selectFrom('installment')
              .select('status')
              .where('contract_id', '=', c.contractId)
              .where('status', '=', 'released')
              .execute()
            if (!released.length) expect(heldNow).toBe(captured - refunded)
            expect((await balance(s.freelancer)).availableMinor).toBeGreaterThanOrEqual(availableBefore)
          },
        ),
        { numRuns: RUNS },
      )
    })
  })
}
