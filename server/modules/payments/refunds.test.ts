import { describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { contractFor, fund, ledgerBroken, usePayments } from '../../../tests/support/modules/payments.ts'
import { refundHelpers } from '../../../tests/support/modules/refunds.ts'
import { feeOf } from './fees.ts'

// Refund requests and their disputes on both databases, through the real API and the sandbox
// gateway (decisions 180–183): a full and a partial refund, the refusals, and a declined request
// disputed and split. Default fees: the client pays 3 % on top, the platform keeps 10 % of what is
// released. Every refusal is checked to change nothing. Deadlines, races, the gateway's late
// answers and auto-release are in refunds-over-time.test.ts.
const DAY = 86_400_000

for (const dialect of dialects) {
  describe(`refunds on ${dialect}`, () => {
    const s = usePayments(dialect)
    const { decide, balance, statusOf, count, ask, funded } = refundHelpers(s)

    test('a full refund accepted goes back through the sandbox at once: nothing held, the installment awaits funding again, both are told', async () => {
      const c = await funded()
      const before = await balance(s.client)
      const asked = await ask(s.client, c.projectId, c.i.id, 100000)
      expect(asked.status, asked.text).toBe(200)
      expect(asked.json).toMatchObject({
        status: 'open',
        amountMinor: 100000,
        currency: 'EUR',
        overdue: false,
        canDispute: false,
      })
      expect(new Date(asked.json.respondBy).getTime() - Date.now()).toBeGreaterThan(6.9 * DAY)
      const listed = (
        await s.t.call('GET', `projects/${c.projectId}/refund-requests`, { token: s.freelancer.token })
      ).json
      expect(listed).toMatchObject({
        data: [{ id: asked.json.id }],
        refundable: [{ installmentId: c.i.id, refundableMinor: 100000, open: true }],
        responseDays: 7,
      })
      const accepted = await s.t.call('POST', `refund-requests/${asked.json.id}/accept`, {
        token: s.freelancer.token,
      })
      expect(accepted.status, accepted.text).toBe(200)
      expect(accepted.json).toMatchObject({
        status: 'accepted',
        amountMinor: 100000,
        feeMinor: 3000,
        gatewayStatus: 'succeeded',
      })
      expect((await balance(s.client)).heldMinor).toBe(before.heldMinor - 103000)
      expect(await statusOf(c.i.id)).toBe('pending')
      const refund = await s.database.db
        .selectFrom('ledger_transaction')
        .select(['kind', 'installment_id'])
        .where('ref', '=', `refund:${asked.json.id}`)
        .executeTakeFirstOrThrow()
      expect(refund).toEqual({ kind: 'refund', installment_id: c.i.id })
      expect(await ledgerBroken(s.database)).toEqual([])
      // Answered once: a second accept is out of order.
      expect(
        (await s.t.call('POST', `refund-requests/${asked.json.id}/accept`, { token: s.freelancer.token }))
          .status,
      ).toBe(409)
      // The installment can be funded again by a new payment.
      await fund(s.t.call, s.client, c.projectId, [c.i.id])
      expect(await statusOf(c.i.id)).toBe('funded')
      // The project's activity names who took each step: the client funded (the gateway only
      // confirmed it), asked for the refund, and the freelancer accepted it.
      const log = (
        await s.t.call('GET', `projects/${c.projectId}/activities?pageSize=50`, { token: s.client.token })
      ).json.data as Array<{
        entity: string
        action: string
        note: string | null
        amount: { minor: number; currency: string } | null
        actor: { id: number } | null
      }>
      const step = (entity: string, action: string) =>
        log
          .filter((a) => a.entity === entity && a.action === action)
          .map((a) => [a.actor?.id, a.amount ?? a.note])
      expect(step('installment', 'fund')).toEqual([
        [s.client.id, null],
        [s.client.id, null],
      ])
      // The amount asked is a fact the reader's screen words as money (decision 321), not English text.
      expect(step('refund', 'request')).toEqual([[s.client.id, { minor: 100000, currency: 'EUR' }]])
      expect(step('refund', 'accept')).toEqual([[s.freelancer.id, null]])
      // Notifications and the chat's system messages arrive through the outbox.
      await s.t.api.jobs.outbox.drain()
      const texts = await s.database.db
        .selectFrom('notification')
        .select(['user_id', 'message_key'])
        .where('project_id', '=', c.projectId)
        .execute()
      expect(texts).toEqual(
        expect.arrayContaining([
          { user_id: s.freelancer.id, message_key: 'refunds:notify.refundRequested' },
          { user_id: s.client.id, message_key: 'refunds:notify.refundAccepted' },
        ]),
      )
      const events = await s.database.db
        .selectFrom('chat_message as m')
        .innerJoin('chat_room as r', 'r.id', 'm.room_id')
        .select('m.event')
        .where('r.project_id', '=', c.projectId)
        .where('m.kind', '=', 'system')
        .execute()
      expect(events.map((e) => e.event)).toEqual(
        expect.arrayContaining(['refundRequested', 'refundAccepted']),
      )
    })

    test('a partial refund gives back part of the price and its share of the client fee; the release pays the rest', async () => {
      const c = await funded([100000], true)
      const held = (await balance(s.client)).heldMinor
      const earned = (await balance(s.freelancer)).availableMinor
      const asked = await ask(s.client, c.projectId, c.i.id, 40000)
      // Open: the installment cannot be approved (released) meanwhile.
      expect(
        (
          await s.t.call('POST', `projects/installments/${c.i.id}/approve`, {
            token: s.client.token,
            body: {},
          })
        ).status,
      ).toBe(409)
      expect(await statusOf(c.i.id)).toBe('submitted')
      const accepted = await s.t.call('POST', `refund-requests/${asked.json.id}/accept`, {
        token: s.freelancer.token,
      })
      expect(accepted.json).toMatchObject({ amountMinor: 40000, feeMinor: 1200 })
      expect((await balance(s.client)).heldMinor).toBe(held - 41200)
      expect(await statusOf(c.i.id)).toBe('submitted')
      const left = (
        await s.t.call('GET', `projects/${c.projectId}/refund-requests`, { token: s.client.token })
      ).json.refundable
      expect(left).toEqual([{ installmentId: c.i.id, refundableMinor: 60000, open: false }])
      // More than what is left is refused.
      expect((await ask(s.client, c.projectId, c.i.id, 60001)).status).toBe(400)
      const approved = await s.t.call('POST', `projects/installments/${c.i.id}/approve`, {
        token: s.client.token,
        body: {},
      })
      expect(approved.status, approved.text).toBe(200)
      expect((await balance(s.freelancer)).availableMinor - earned).toBe(60000 - feeOf(60000, 1000))
      expect((await balance(s.client)).heldMinor).toBe(held - 103000)
      const details = (
        await s.t.call('GET', `projects/${c.projectId}/paid-details`, { token: s.freelancer.token })
      ).json
      expect(details.installments[0]).toMatchObject({
        paidMinor: 103000,
        refundedMinor: 41200,
        releasedMinor: 54000,
        platformFeeMinor: 6000,
      })
      expect(details).toMatchObject({ paidMinor: 103000, heldMinor: 0, refundedMinor: 41200 })
      expect(details.paidMinor).toBe(
        details.heldMinor + details.releasedMinor + details.platformFeesMinor + details.refundedMinor,
      )
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test("bad amounts, other people's installments and wrong states are refused naming the field, and nothing changes", async () => {
      const c = await funded()
      const [, pending] = c.installments
      const mine = await contractFor(s.t.call, s.database, s.other, s.freelancer, [20000])
      await fund(s.t.call, s.other, mine.projectId, [mine.installments[0].id])
      await s.t.api.jobs.outbox.drain()
      const before = [await count('ledger_entry'), await count('refund_request'), await count('outbox')]
      const field = async (
        r: Promise<{ status: number; json: { errors?: Record<string, string[]> } }>,
        status: number,
        name?: string,
      ) => {
        const answer = await r
        expect(answer.status).toBe(status)
        if (name) expect(Object.keys(answer.json.errors ?? {})).toEqual([name])
      }
      await field(ask(s.client, c.projectId, c.i.id, 0), 400, 'amount')
      await field(ask(s.client, c.projectId, c.i.id, -5), 400, 'amount')
      await field(ask(s.client, c.projectId, c.i.id, '12.5'), 400, 'amount')
      await field(ask(s.client, c.projectId, c.i.id, 'all'), 400, 'amount')
      await field(ask(s.client, c.projectId, c.i.id, 100001), 400, 'amount')
      await field(ask(s.client, c.projectId, c.i.id, 1000, '  '), 400, 'reason')
      await field(ask(s.client, c.projectId, 'x', 1000), 400, 'installmentId')
      // Another contract's installment under the caller's project; the caller's installment under another's project.
      await field(ask(s.client, c.projectId, mine.installments[0].id, 1000), 400, 'installmentId')
      await field(ask(s.client, mine.projectId, mine.installments[0].id, 1000), 404)
      await field(ask(s.freelancer, c.projectId, c.i.id, 1000), 404)
      // Not funded: nothing is held.
      await field(ask(s.client, c.projectId, pending.id, 1000), 409)
      expect([await count('ledger_entry'), await count('refund_request'), await count('outbox')]).toEqual(
        before,
      )
      // Only the freelancer answers; strangers do not see the request.
      const asked = await ask(s.client, c.projectId, c.i.id, 1000)
      await field(s.t.call('POST', `refund-requests/${asked.json.id}/accept`, { token: s.client.token }), 403)
      await field(s.t.call('POST', `refund-requests/${asked.json.id}/accept`, { token: s.other.token }), 404)
      await field(
        s.t.call('POST', `refund-requests/${asked.json.id}/decline`, {
          token: s.freelancer.token,
          body: { reason: '' },
        }),
        400,
        'reason',
      )
      await field(s.t.call('GET', `projects/${c.projectId}/refund-requests`, { token: s.other.token }), 404)
      // One open request per installment.
      await field(ask(s.client, c.projectId, c.i.id, 1000), 409)
      expect(await statusOf(c.i.id)).toBe('funded')
    })

    test('declined, then disputed: the installment is frozen until an admin splits it; the split moves money once', async () => {
      const c = await funded([100000], true)
      const held = (await balance(s.client)).heldMinor
      const earned = (await balance(s.freelancer)).availableMinor
      const asked = await ask(s.client, c.projectId, c.i.id, 100000)
      // Not answered and not overdue: no dispute yet.
      expect(
        (await s.t.call('POST', `refund-requests/${asked.json.id}/dispute`, { token: s.client.token }))
          .status,
      ).toBe(409)
      const declined = await s.t.call('POST', `refund-requests/${asked.json.id}/decline`, {
        token: s.freelancer.token,
        body: { reason: 'The drawings follow the brief' },
      })
      expect(declined.json).toMatchObject({
        status: 'declined',
        declineReason: 'The drawings follow the brief',
        canDispute: true,
      })
      const disputed = await s.t.call('POST', `refund-requests/${asked.json.id}/dispute`, {
        token: s.client.token,
      })
      expect(disputed.json.status).toBe('disputed')
      // Frozen: no release, no new refund request.
      expect(
        (
          await s.t.call('POST', `projects/installments/${c.i.id}/approve`, {
            token: s.client.token,
            body: {},
          })
        ).status,
      ).toBe(409)
      expect((await ask(s.client, c.projectId, c.i.id, 1000)).status).toBe(409)
      // The dispute is a ticket in support's queue, with both sides' statements (decision 313).
      const ticket = await s.t.call('GET', `Admin/complaints/${disputed.json.complaintId}`, {
        token: s.admin.token,
      })
      expect(ticket.json).toMatchObject({
        subject: { kind: 'installment', id: c.i.id },
        author: { id: s.client.id },
        dispute: { status: 'held', heldMinor: 100000, decideBy: expect.any(String) },
      })
      expect(ticket.json.messages.map((m: { body: string }) => m.body)).toEqual([
        asked.json.reason,
        'The drawings follow the brief',
      ])
      expect(
        (await decide(disputed.json.complaintId, { outcome: 'split', refundMinor: 100000, reason: 'Split' }))
          .status,
      ).toBe(400)
      const decisions = await Promise.allSettled(
        ['Split: part of the drawings was reused', 'Split again'].map(async (reason) => {
          const r = await decide(disputed.json.complaintId, { outcome: 'split', refundMinor: 30000, reason })
          if (r.status !== 200) throw new Error(r.text)
        }),
      )
      expect(decisions.filter((d) => d.status === 'fulfilled')).toHaveLength(1)
      expect(await statusOf(c.i.id)).toBe('released')
      expect((await balance(s.client)).heldMinor).toBe(held - 103000)
      expect((await balance(s.freelancer)).availableMinor - earned).toBe(70000 - feeOf(70000, 1000))
      expect(
        (await s.t.call('GET', `projects/${c.projectId}/refund-requests`, { token: s.client.token })).json
          .data[0],
      ).toMatchObject({ status: 'decided', amountMinor: 30000, feeMinor: 900, gatewayStatus: 'succeeded' })
      expect(await ledgerBroken(s.database)).toEqual([])
    })
  })
}
