import { describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import {
  contractFor,
  fund,
  ledgerBroken,
  paymentsTestApi,
  usePayments,
} from '../../../tests/support/modules/payments.ts'
import { disputeHelpers } from '../../../tests/support/modules/disputes.ts'
import { sandboxEvent } from '../payments/gateways/sandbox.ts'
import { refundToken } from '../payments/refunds.ts'

// Disputes over money raised by a complaint (issue 18 item 2, decisions 230–234), on both
// databases through the real API and the sandbox gateway: the complaint holds the installment's
// money, the admin decides release, refund or split against what is held (400 naming the field
// otherwise), once (also when two decisions race), audited in the money's transaction; a failed
// refund restoring the installment (issue 17). Who reads a complaint is in complaint-access.test.ts.
for (const dialect of dialects) {
  describe(`disputes on ${dialect}`, () => {
    const s = usePayments(dialect)
    type U = Awaited<ReturnType<ReturnType<typeof paymentsTestApi>['user']>>
    const { balance, statusOf, ledgerRows, file, decide, fundedComplaint } = disputeHelpers(s)

    test('a complaint about a funded installment holds its money; the admin splits it once, audited, both told, the ticket resolved', async () => {
      const c = await fundedComplaint()
      expect(
        (await s.t.call('GET', `complaints/${c.id}`, { token: s.freelancer.token })).json.dispute,
      ).toMatchObject({ status: 'held', heldMinor: 100000, currency: 'EUR' })
      // Held: the client can neither approve (release) nor ask for a refund meanwhile.
      await s.t.call('POST', `projects/installments/${c.i.id}/submit`, {
        token: s.freelancer.token,
        body: { note: 'Drawings attached' },
      })
      expect(
        (await s.t.call('POST', `projects/installments/${c.i.id}/approve`, { token: s.client.token })).status,
      ).toBe(409)
      expect(
        (
          await s.t.call('POST', `RefundRequest/${c.projectId}/${c.i.id}/1000`, {
            token: s.client.token,
            body: { reason: 'Part of it back please' },
          })
        ).status,
      ).toBe(409)
      // A contract-level complaint holds nothing.
      const loose = await file(s.client, `contract:${c.contractId}`)
      expect(loose.json.dispute).toBeNull()

      // Amounts outside what is held, and bad input: 400 naming the field, nothing moves.
      const rows = await ledgerRows()
      for (const [body, field] of [
        [{ outcome: 'split', refundMinor: 100000, reason: 'Half each' }, 'refundMinor'],
        [{ outcome: 'split', refundMinor: 250000, reason: 'Half each' }, 'refundMinor'],
        [{ outcome: 'split', reason: 'Half each' }, 'refundMinor'],
        [{ outcome: 'split', refundMinor: -5, reason: 'Half each' }, 'refundMinor'],
        [{ outcome: 'halves', reason: 'Half each' }, 'outcome'],
        [{ outcome: 'release', reason: '' }, 'reason'],
      ] as const) {
        const refused = await decide(c.id, body)
        expect(refused.status, JSON.stringify(body)).toBe(400)
        expect(Object.keys(refused.json.errors)).toEqual([field])
      }
      expect(await ledgerRows()).toBe(rows)
      // Only a SuperAdmin decides.
      for (const u of [s.client, s.freelancer, s.other])
        expect((await decide(c.id, { outcome: 'release', reason: 'Mine now' }, u.token)).status).toBe(403)

      const held = (await balance(s.client)).heldMinor
      const earned = (await balance(s.freelancer)).availableMinor
      const split = await decide(c.id, {
        outcome: 'split',
        refundMinor: 40000,
        reason: 'Part of the drawings were usable.',
      })
      expect(split.status, split.text).toBe(200)
      expect(split.json).toMatchObject({
        state: 'resolved',
        dispute: { status: 'decided', refundedMinor: 40000 },
      })
      expect(split.json.audit.at(-1)).toMatchObject({
        action: 'decide_dispute',
        toState: 'resolved',
        actor: { id: s.admin.id },
      })
      // The reason is the admin's own words; the amounts are facts each reader's screen words as
      // money in their language (decision 321), never English text written once by the server.
      expect(split.json.audit.at(-1)).toMatchObject({
        reason: 'Part of the drawings were usable.',
        params: { outcome: 'split', refundMinor: 40000, releaseMinor: 60000, currency: 'EUR' },
      })
      // 40 000 of the price and its 3 % fee back; 60 000 released less the 10 % platform fee.
      expect((await balance(s.client)).heldMinor).toBe(held - 103000)
      expect((await balance(s.freelancer)).availableMinor).toBe(earned + 54000)
      expect((await statusOf(c.i.id)).status).toBe('released')
      expect(await ledgerBroken(s.database)).toEqual([])
      // A second decision is refused; the money moved once.
      const again = await ledgerRows()
      expect((await decide(c.id, { outcome: 'release', reason: 'Changed my mind' })).status).toBe(409)
      expect(await ledgerRows()).toBe(again)

      await s.t.api.jobs.outbox.drain()
      const told = await s.database.db
        .selectFrom('notification')
        .select(['user_id', 'message_key'])
        .where('project_id', '=', c.projectId)
        .execute()
      expect(told).toEqual(
        expect.arrayContaining([
          { user_id: s.client.id, message_key: 'refunds:notify.disputeDecidedForClient.split' },
          { user_id: s.freelancer.id, message_key: 'refunds:notify.disputeDecidedForFreelancer.split' },
        ]),
      )
      // Each side reads what was decided, with the amounts as money in its language and the other
      // side by name (issue 39): not only that a decision was taken.
      const decidedFor = async (u: U, lang = 'en', title = 'Dispute decided') =>
        (
          (await s.t.call('GET', `notifications?lang=${lang}`, { token: u.token })).json.data as Array<{
            title: string
            content: string
          }>
        ).find((n) => n.title === title)
      expect(await decidedFor(s.client)).toMatchObject({
        content: expect.stringMatching(/: €400\.00 back to you, €600\.00 to Fran Engineer\.$/),
      })
      expect(await decidedFor(s.freelancer)).toMatchObject({
        content: expect.stringMatching(/: €600\.00 to you, €400\.00 back to Clara Client\.$/),
      })
      expect((await decidedFor(s.freelancer, 'de', 'Streitfall entschieden'))?.content).toMatch(
        /entschieden: 600,00\s€ an Sie, 400,00\s€ zurück an Clara Client\.$/,
      )
      const events = await s.database.db
        .selectFrom('chat_message as m')
        .innerJoin('chat_room as r', 'r.id', 'm.room_id')
        .select('m.event')
        .where('r.project_id', '=', c.projectId)
        .execute()
      expect(events.map((e) => e.event)).toContain('disputeDecided')
      const bell = await s.database.db
        .selectFrom('notification')
        .select(['user_id', 'message_key'])
        .where('message_key', 'like', '%disputeOpened%')
        .execute()
      expect(bell).toContainEqual({ user_id: s.client.id, message_key: 'disputes:notify.disputeOpened' })
    })

    test('release and refund give all of it to one side; two decisions racing move the money once', async () => {
      const a = await fundedComplaint([70000])
      const released = await decide(a.id, { outcome: 'release', reason: 'The work was delivered.' })
      expect(released.status, released.text).toBe(200)
      expect((await statusOf(a.i.id)).status).toBe('released')
      await s.t.api.jobs.outbox.drain()
      const told = async (u: U) =>
        (
          (await s.t.call('GET', 'notifications', { token: u.token })).json.data as Array<{ content: string }>
        ).map((n) => n.content)
      expect(await told(s.freelancer)).toContainEqual(
        expect.stringMatching(/: all €700\.00 is released to you\.$/),
      )
      expect(await told(s.client)).toContainEqual(
        expect.stringMatching(/: all €700\.00 is released to Fran Engineer\.$/),
      )
      const b = await fundedComplaint([80000])
      const rows = await ledgerRows()
      const raced = await Promise.all([
        decide(b.id, { outcome: 'refund', reason: 'Nothing was delivered.' }),
        decide(b.id, { outcome: 'release', reason: 'It was delivered.' }),
      ])
      expect(raced.map((r) => r.status).sort()).toEqual([200, 409])
      const winner = raced.find((r) => r.status === 200)!
      expect(await statusOf(b.i.id)).toMatchObject({
        status: winner.json.dispute.refundedMinor ? 'pending' : 'released',
      })
      // One posting: either a refund (2 entries) or a release (3 entries).
      expect((await ledgerRows()) - rows).toBe(winner.json.dispute.refundedMinor ? 2 : 3)
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test("an open refund request becomes the complaint's dispute; a second complaint about the installment holds nothing more; unfunded installments hold nothing", async () => {
      const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, [50000, 20000])
      await fund(s.t.call, s.client, c.projectId, [c.installments[0].id])
      const asked = await s.t.call('POST', `RefundRequest/${c.projectId}/${c.installments[0].id}/10000`, {
        token: s.client.token,
        body: { reason: 'Only half of the drawings came' },
      })
      const filed = await file(s.freelancer, `installment:${c.installments[0].id}`)
      expect(filed.json.dispute).toMatchObject({ status: 'held', heldMinor: 50000 })
      const request = await s.database.db
        .selectFrom('refund_request')
        .select(['status', 'complaint_id'])
        .where('id', '=', asked.json.id)
        .executeTakeFirstOrThrow()
      expect(request).toEqual({ status: 'disputed', complaint_id: filed.json.id })
      // The freelancer can no longer answer the request: the admin decides now.
      expect(
        (await s.t.call('POST', `refund-requests/${asked.json.id}/accept`, { token: s.freelancer.token }))
          .status,
      ).toBe(409)
      const second = await file(s.client, `installment:${c.installments[0].id}`)
      expect(second.json.dispute).toBeNull()
      expect((await decide(second.json.id, { outcome: 'release', reason: 'Not this one' })).status).toBe(404)
      const unfunded = await file(s.freelancer, `installment:${c.installments[1].id}`)
      expect(unfunded.json.dispute).toBeNull()
      expect(
        await s.database.db
          .selectFrom('refund_request')
          .select('id')
          .where('installment_id', '=', c.installments[1].id)
          .execute(),
      ).toEqual([])
      // The decision on the first complaint settles the request it took over.
      expect(
        (await decide(filed.json.id, { outcome: 'refund', reason: 'Nothing usable was delivered.' })).status,
      ).toBe(200)
      expect((await statusOf(c.installments[0].id)).status).toBe('pending')
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('issue 17: a full refund that fails at the gateway after it was accepted funds the installment again; a partial one holds its part again', async () => {
      const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, [60000, 40000])
      await fund(s.t.call, s.client, c.projectId, [c.installments[0].id, c.installments[1].id])
      // As if the gateway had answered "pending": its final answer comes later as an event, "failed".
      const gateway = s.t.api.services.sandboxGateway
      const refund = gateway.refund
      for (const [i, amount] of [
        [c.installments[0], 60000],
        [c.installments[1], 15000],
      ] as const) {
        const before = await statusOf(i.id)
        const held = (await balance(s.client)).heldMinor
        const asked = await s.t.call('POST', `RefundRequest/${c.projectId}/${i.id}/${amount}`, {
          token: s.client.token,
          body: { reason: 'Not needed any more' },
        })
        gateway.refund = async (r) => ({ status: 'pending', gatewayRef: `sbx_re_${r.refundId}` })
        try {
          expect(
            (await s.t.call('POST', `refund-requests/${asked.json.id}/accept`, { token: s.freelancer.token }))
              .json.gatewayStatus,
          ).toBe('pending')
        } finally {
          gateway.refund = refund
        }
        const r = await s.database.db
          .selectFrom('refund_request')
          .select(['amount_minor', 'fee_minor'])
          .where('id', '=', asked.json.id)
          .executeTakeFirstOrThrow()
        const failed = sandboxEvent(await gateway.secret(), 'refund.failed', {
          paymentToken: refundToken(asked.json.id),
          amountMinor: r.amount_minor + r.fee_minor,
          currency: 'EUR',
        })
        for (let n = 0; n < 2; n++)
          expect(
            (await s.t.raw('POST', 'Payment/PaymentCallback', { body: failed.body, headers: failed.headers }))
              .status,
          ).toBe(200)
        expect((await balance(s.client)).heldMinor).toBe(held)
        expect(await statusOf(i.id)).toEqual(before)
        expect(await ledgerBroken(s.database)).toEqual([])
      }
      // Funded again: it can be released to the freelancer as usual.
      await s.t.call('POST', `projects/installments/${c.installments[0].id}/submit`, {
        token: s.freelancer.token,
        body: { note: 'Done' },
      })
      expect(
        (
          await s.t.call('POST', `projects/installments/${c.installments[0].id}/approve`, {
            token: s.client.token,
          })
        ).status,
      ).toBe(200)
      expect(await ledgerBroken(s.database)).toEqual([])
    })
  })
}
