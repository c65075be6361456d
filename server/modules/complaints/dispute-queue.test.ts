import { describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { disputeTickets } from '#server/db/migrations/0037-dispute-tickets.ts'
import {
  contractFor,
  fund,
  ledgerBroken,
  paymentsTestApi,
  usePayments,
} from '../../../tests/support/modules/payments.ts'

// Every dispute lands in one queue where it can be decided (issue 39 item 2, decision 313), on
// both databases through the real API: a client's dispute of a declined refund files its ticket
// with both sides' statements; a complaint about a contract can hold one of its funded installments
// and be decided; the queue lists disputes with the money held and the date to decide by; both
// sides hear of each step.
for (const dialect of dialects) {
  describe(`the dispute queue on ${dialect}`, () => {
    const s = usePayments(dialect)
    type U = Awaited<ReturnType<ReturnType<typeof paymentsTestApi>['user']>>
    const as = (u: U) => ({ token: u.token })
    const told = async (u: U, key: string) => {
      await s.t.api.jobs.outbox.drain()
      return (
        await s.database.db
          .selectFrom('notification')
          .select('message_key')
          .where('user_id', '=', u.id)
          .where('message_key', '=', key)
          .execute()
      ).length
    }
    const queue = async () =>
      (await s.t.call('GET', 'Admin/complaints?dispute=held', as(s.admin))).json.data as Array<{
        id: number
        held: { amountMinor: number; decideBy: string; overdue: boolean } | null
      }>

    test('a disputed refund files its own ticket: both statements, a date to decide by, in the queue, decided there', async () => {
      const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, [60000])
      await fund(s.t.call, s.client, c.projectId, [c.installments[0].id])
      const asked = await s.t.call('POST', `RefundRequest/${c.projectId}/${c.installments[0].id}/20000`, {
        ...as(s.client),
        body: { reason: 'The load calculations were never sent.' },
      })
      await s.t.call('POST', `refund-requests/${asked.json.id}/decline`, {
        ...as(s.freelancer),
        body: { reason: 'They are in the shared folder since May.' },
      })
      const before = await told(s.freelancer, 'disputes:notify.disputeOpened')
      const disputed = await s.t.call('POST', `refund-requests/${asked.json.id}/dispute`, as(s.client))
      expect(disputed.status, disputed.text).toBe(200)
      const id = disputed.json.complaintId as number
      expect(await told(s.freelancer, 'disputes:notify.disputeOpened')).toBe(before + 1)

      const listed = (await queue()).find((x) => x.id === id)
      expect(listed?.held).toMatchObject({ amountMinor: 60000, overdue: false })
      const days = (Date.parse(listed!.held!.decideBy) - Date.now()) / 86_400_000
      expect(days).toBeGreaterThan(6.9)
      expect(days).toBeLessThan(7.1)
      // The freelancer reads the ticket as its other party and sees the date too.
      const party = await s.t.call('GET', `complaints/${id}`, as(s.freelancer))
      expect(party.json).toMatchObject({
        viewer: 'party',
        dispute: { status: 'held', decideBy: expect.any(String) },
      })
      expect(party.json.messages.map((m: { body: string }) => m.body)).toEqual([
        'The load calculations were never sent.',
        'They are in the shared folder since May.',
      ])
      // Support writes: both sides hear of it.
      const wrote = await told(s.freelancer, 'disputes:notify.supportWrote')
      await s.t.call('POST', `Admin/complaints/${id}/reply`, {
        ...as(s.admin),
        body: { body: 'Please both upload what was sent.' },
      })
      expect(await told(s.freelancer, 'disputes:notify.supportWrote')).toBe(wrote + 1)

      const bells = async () => {
        await s.t.api.jobs.outbox.drain()
        const count = async (u: U) =>
          (await s.database.db.selectFrom('notification').select('id').where('user_id', '=', u.id).execute())
            .length
        return [await count(s.client), await count(s.freelancer)]
      }
      const [clientBefore, freelancerBefore] = await bells()
      const decided = await s.t.call('POST', `Admin/complaints/${id}/decision`, {
        ...as(s.admin),
        body: { outcome: 'release', reason: 'The calculations were shared in May.' },
      })
      expect(decided.status, decided.text).toBe(200)
      // One event, one notification (issue 39 item 6): each side's bell has the decision once, the
      // ticket's author (the client) included, who used to get "Complaint resolved" beside it.
      expect(await bells()).toEqual([clientBefore + 1, freelancerBefore + 1])
      expect(decided.json).toMatchObject({
        state: 'resolved',
        dispute: { status: 'decided', decideBy: null },
      })
      expect((await queue()).some((x) => x.id === id)).toBe(false)
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('a complaint about a contract holds one of its funded installments, then is decided; bad holds change nothing', async () => {
      const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, [40000, 30000])
      await fund(s.t.call, s.client, c.projectId, [c.installments[0].id])
      const filed = await s.t.call('POST', 'complaints', {
        ...as(s.client),
        body: {
          subject: `contract:${c.contractId}`,
          title: 'The engineer stopped answering',
          description: 'No answer for three weeks and the permit deadline is close.',
        },
      })
      expect(filed.json.dispute).toBeNull()
      const id = filed.json.id as number
      const ticket = await s.t.call('GET', `Admin/complaints/${id}`, as(s.admin))
      // Only the funded installment can be held; the unfunded one holds no money.
      expect(ticket.json.holdable).toEqual([
        { installmentId: c.installments[0].id, title: 'Stage 1', heldMinor: 40000, currency: 'EUR' },
      ])
      expect(ticket.json.canReadRoom).toBe(true)
      const hold = (installmentId: unknown, u = s.admin) =>
        s.t.call('POST', `Admin/complaints/${id}/hold`, { ...as(u), body: { installmentId } })
      for (const u of [s.client, s.freelancer, s.other])
        expect((await hold(c.installments[0].id, u)).status).toBe(403)
      const refused = await hold('first')
      expect(refused.status).toBe(400)
      expect(Object.keys(refused.json.errors)).toEqual(['installmentId'])
      expect((await hold(c.installments[1].id)).status).toBe(409)
      expect((await s.t.call('GET', `Admin/complaints/${id}`, as(s.admin))).json.dispute).toBeNull()

      const partyTold = await told(s.freelancer, 'disputes:notify.disputeOpened')
      const held = await hold(c.installments[0].id)
      expect(held.status, held.text).toBe(200)
      expect(held.json).toMatchObject({ dispute: { status: 'held', heldMinor: 40000 }, holdable: [] })
      expect(await told(s.freelancer, 'disputes:notify.disputeOpened')).toBe(partyTold + 1)
      expect(await told(s.client, 'disputes:notify.moneyHeld')).toBe(1)
      expect(held.json.audit.map((a: { action: string }) => a.action)).toContain('hold_money')
      // Held: no release meanwhile; a second hold is refused.
      expect((await hold(c.installments[0].id)).status).toBe(409)
      expect(
        (
          await s.t.call('POST', `projects/installments/${c.installments[0].id}/approve`, {
            ...as(s.client),
            body: {},
          })
        ).status,
      ).toBe(409)
      expect((await queue()).some((x) => x.id === id)).toBe(true)

      const decided = await s.t.call('POST', `Admin/complaints/${id}/decision`, {
        ...as(s.admin),
        body: { outcome: 'split', refundMinor: '150.00', reason: 'Half of the stage was delivered.' },
      })
      expect(decided.status, decided.text).toBe(200)
      expect(decided.json.dispute).toMatchObject({ status: 'decided', refundedMinor: 15000 })
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('migration 0037 files a ticket for a dispute that was opened before disputes had tickets', async () => {
      const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, [25000])
      await fund(s.t.call, s.client, c.projectId, [c.installments[0].id])
      const asked = await s.t.call('POST', `RefundRequest/${c.projectId}/${c.installments[0].id}/5000`, {
        ...as(s.client),
        body: { reason: 'Only one of two reports came.' },
      })
      await s.t.call('POST', `refund-requests/${asked.json.id}/decline`, {
        ...as(s.freelancer),
        body: { reason: 'Both reports are in one file.' },
      })
      const disputed = await s.t.call('POST', `refund-requests/${asked.json.id}/dispute`, as(s.client))
      // As the database was before 0037: a disputed request with no ticket and no date.
      const db = s.database.db
      await db
        .updateTable('refund_request')
        .set({ complaint_id: null })
        .where('id', '=', asked.json.id)
        .execute()
      await db.deleteFrom('complaint_message').where('complaint_id', '=', disputed.json.complaintId).execute()
      await db.deleteFrom('complaint').where('id', '=', disputed.json.complaintId).execute()
      await db.schema.alterTable('refund_request').dropColumn('decide_by').execute()

      await disputeTickets.up(db, dialect)
      const r = await db
        .selectFrom('refund_request')
        .select(['complaint_id', 'decide_by'])
        .where('id', '=', asked.json.id)
        .executeTakeFirstOrThrow()
      expect(r.decide_by).not.toBeNull()
      const ticket = await s.t.call('GET', `Admin/complaints/${r.complaint_id}`, as(s.admin))
      expect(ticket.json).toMatchObject({
        subject: { kind: 'installment', id: c.installments[0].id },
        author: { id: s.client.id },
        title: 'Only one of two reports came.',
        dispute: { status: 'held', heldMinor: 25000 },
      })
      expect(ticket.json.messages.map((m: { body: string }) => m.body)).toEqual([
        'Only one of two reports came.',
        'Both reports are in one file.',
      ])
      expect((await queue()).find((x) => x.id === r.complaint_id)?.held?.overdue).toBe(true)
    })
  })
}
