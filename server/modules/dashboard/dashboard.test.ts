import { beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { useModuleApi } from '../../../tests/integration/module-api.ts'
import { installmentStates } from '../projects/machines.ts'
import { turnOf } from '../projects/work-queue.ts'
import { fund } from '../../../tests/support/modules/payments.ts'

// GET /api/v1/dashboard on both databases: each side sees what waits on it and nothing of anyone
// else's, and a contract's next step follows it through every installment state to completion.
test.each([
  ['pending', 'client'],
  ['funded', 'freelancer'],
  ['submitted', 'client'],
  ['changes_requested', 'freelancer'],
  ['approved', null],
  ['released', null],
] as const)('an installment that is %s waits on %s (read from its state machine)', (state, side) => {
  expect(turnOf(state)).toBe(side)
})

test('every installment state has a turn defined', () => {
  for (const s of installmentStates) expect([null, 'client', 'freelancer']).toContain(turnOf(s))
})

for (const dialect of portableDialects) {
  describe(`dashboard on ${dialect}`, () => {
    const s = useModuleApi(dialect, {
      name: 'dashboard',
      addressBlock: 16,
      freelancerTitle: 'Structural engineer',
    })
    let subcategoryId: number
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, client2: U, free1: U, free2: U

    beforeAll(async () => {
      subcategoryId = (
        await s.database.db
          .selectFrom('subcategory')
          .select('id')
          .where('slug', '=', 'structural-engineering')
          .executeTakeFirstOrThrow()
      ).id
      client = await s.t.user('client', 'Clara', 'Client')
      client2 = await s.t.user('company', 'Carl', 'Bauer')
      free1 = await s.t.user('freelancer', 'Fran', 'One')
      free2 = await s.t.user('freelancer', 'Fred', 'Two')
    }, 60_000)

    const dash = async (who: U) => {
      const r = await s.t.call('GET', 'dashboard', { token: who.token })
      expect(r.status, r.text).toBe(200)
      return r.json
    }
    async function openProject(owner: U, title: string) {
      const body = {
        title,
        description: 'Structural calculations for removing a load-bearing wall and adding a rear extension.',
        subcategoryId,
        budgetType: 'fixed',
        budgetMinor: 150000,
        currency: 'EUR',
        remote: true,
        publish: true,
      }
      const r = await s.t.call('POST', 'projects', { token: owner.token, body })
      expect(r.status, r.text).toBe(200)
      return r.json as { id: number }
    }
    async function propose(projectId: number, who: U) {
      const body = {
        coverLetter: 'I have designed many steel beams for kitchen extensions.',
        bidMinor: 140000,
        durationDays: 14,
        installments: [
          { title: 'Calculations', amountMinor: 90000 },
          { title: 'Drawings', amountMinor: 50000 },
        ],
      }
      const r = await s.t.call('POST', `projects/${projectId}/proposal`, { token: who.token, body })
      expect(r.status, r.text).toBe(200)
      return r.json as { id: number }
    }
    const act = (id: number, action: string, who: U, note?: string) =>
      s.t.call('POST', `projects/installments/${id}/${action}`, {
        token: who.token,
        body: note ? { note } : {},
      })

    test('a visitor is refused', async () => {
      expect((await s.t.call('GET', 'dashboard')).status).toBe(401)
    })

    test("a client sees their open projects with proposals to decide, a freelancer their proposals; nobody sees another's", async () => {
      const a = await openProject(client, 'Beam calculations for a kitchen')
      const b = await openProject(client, 'Roof truss check for a barn')
      const quiet = await openProject(client, 'Retaining wall with no proposals yet')
      const other = await openProject(client2, 'Another client entirely')
      await propose(a.id, free1)
      await propose(a.id, free2)
      await propose(b.id, free1)
      await propose(other.id, free2)

      const c = await dash(client)
      expect(c.proposals).toBeNull()
      expect(c.projects.total).toBe(2)
      // The project with the newest proposal first; a project without proposals is not listed.
      expect(
        c.projects.items.map((p: { id: number; pendingProposals: number }) => [p.id, p.pendingProposals]),
      ).toEqual([
        [b.id, 1],
        [a.id, 2],
      ])
      expect(c.projects.items.map((p: { id: number }) => p.id)).not.toContain(quiet.id)
      expect(c.projects.byState).toMatchObject({ open: 3, draft: 0, in_progress: 0 })
      expect(c.contracts).toEqual({ total: 0, items: [] })
      expect(c.messages).toEqual({ unread: null })
      expect(c.profile.percent).toBeLessThan(100)

      const c2 = await dash(client2)
      expect(c2.projects.items.map((p: { id: number }) => p.id)).toEqual([other.id])

      const f = await dash(free1)
      expect(f.projects).toBeNull()
      expect(f.proposals.byState).toEqual({ pending: 2, accepted: 0, rejected: 0, withdrawn: 0 })
      expect(f.proposals.items.map((p: { projectId: number }) => p.projectId).sort()).toEqual(
        [a.id, b.id].sort(),
      )
      expect(f.profile.missing).toContain('image')
    })

    test("an active contract's next step and whose move it is, through every installment to completion and the review", async () => {
      const p = await openProject(client, 'Steel frame for a garden studio')
      const mine = await propose(p.id, free1)
      const theirs = await propose(p.id, free2)
      const contract = (
        await s.t.call('POST', `projects/proposals/${mine.id}/accept/${p.id}`, { token: client.token })
      ).json
      const [i1, i2] = contract.installments as Array<{ id: number }>
      const step = async (who: U) =>
        (await dash(who)).contracts.items.find((c: { projectId: number }) => c.projectId === p.id)

      expect(await step(client)).toMatchObject({
        role: 'client',
        other: { id: free1.id, name: 'Fran One' },
        waitingOn: 'client',
        yourTurn: true,
        next: { id: i1.id, position: 1, status: 'pending' },
        installmentsDone: 0,
        installmentsTotal: 2,
      })
      expect(await step(free1)).toMatchObject({
        role: 'freelancer',
        other: { id: client.id, name: 'Clara Client' },
        waitingOn: 'client',
        yourTurn: false,
      })
      // The other proposer's contract list is empty; their proposal was closed.
      expect(await step(free2)).toBeUndefined()
      expect((await dash(free2)).proposals.items.find((x: { id: number }) => x.id === theirs.id).status).toBe(
        'rejected',
      )
      expect((await dash(client)).projects.items.map((x: { id: number }) => x.id)).not.toContain(p.id)

      await fund(s.t.call, client, p.id, [i1.id])
      expect(await step(free1)).toMatchObject({
        waitingOn: 'freelancer',
        yourTurn: true,
        next: { id: i1.id, status: 'funded' },
      })
      await act(i1.id, 'submit', free1, 'Calculations attached')
      expect(await step(client)).toMatchObject({
        waitingOn: 'client',
        yourTurn: true,
        next: { id: i1.id, status: 'submitted' },
      })
      await act(i1.id, 'request-changes', client, 'Check the padstones')
      expect(await step(free1)).toMatchObject({ yourTurn: true, next: { status: 'changes_requested' } })
      await act(i1.id, 'submit', free1, 'Checked')
      await act(i1.id, 'approve', client)
      expect(await step(client)).toMatchObject({
        yourTurn: true,
        next: { id: i2.id, position: 2, status: 'pending' },
        installmentsDone: 1,
      })
      await fund(s.t.call, client, p.id, [i2.id])
      await act(i2.id, 'submit', free1, 'Drawings')
      await act(i2.id, 'approve', client)
      // Nothing left to move: the client completes.
      expect(await step(client)).toMatchObject({
        waitingOn: 'client',
        yourTurn: true,
        next: null,
        installmentsDone: 2,
      })
      expect(await step(free1)).toMatchObject({ waitingOn: 'client', yourTurn: false, next: null })

      const before = {
        client: (await dash(client)).reviewsToWrite,
        free1: (await dash(free1)).reviewsToWrite,
      }
      expect(
        (await s.t.call('PUT', `projects/${p.id}/updatestate/completed`, { token: client.token })).status,
      ).toBe(200)
      expect(await step(client)).toBeUndefined()
      expect((await dash(client)).reviewsToWrite).toBe(before.client + 1)
      expect((await dash(free1)).reviewsToWrite).toBe(before.free1 + 1)
      await s.t.call('POST', `projects/contracts/${contract.id}/review`, {
        token: free1.token,
        body: { rating: 5, body: 'Clear brief, quick answers.' },
      })
      expect((await dash(free1)).reviewsToWrite).toBe(before.free1)
      expect((await dash(free2)).reviewsToWrite).toBe(0)
    })

    test("the caller's unread notifications, newest first, and only theirs", async () => {
      const notifications = s.t.api.services.notifications
      const item = (userId: number, n: number) => ({
        userId,
        source: `test:${userId}:${n}`,
        messageKey: 'proposalReceived',
        params: { title: `Project ${n}` },
        type: 'Proposal' as const,
      })
      const stored = await notifications.record(s.database.db, [
        item(client2.id, 1),
        item(client2.id, 2),
        item(client2.id, 3),
        item(free2.id, 4),
      ])
      await notifications.markRead(client2.id, stored[1]!.id, 'en')
      const d = await dash(client2)
      expect(d.notifications.unread).toBe(2)
      expect(d.notifications.latest.map((n: { id: number }) => n.id)).toEqual([stored[2]!.id, stored[0]!.id])
      expect(d.notifications.latest.every((n: { isRead: boolean }) => !n.isRead)).toBe(true)
    })
  })
}
