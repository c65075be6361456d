import { beforeAll, describe, expect, test } from 'vitest'
import { dialects } from '../../../../tests/integration/databases.ts'
import { useModuleApi } from '../../../../tests/integration/module-api.ts'
import { projectBody, publish, settle, structural } from '../../../../tests/support/modules/alerts.ts'
import { notificationTarget } from '../../notifications/targets.ts'
import { Role } from '../../identity/permissions.ts'

// Direct offers on both databases (decision 342): a client offers a freelancer work and terms; the
// freelancer's acceptance starts the contract as a proposal's acceptance does. Every refusal names
// its field or state with a stable code and changes nothing; outsiders are told the offer and its
// project do not exist.
for (const dialect of dialects) {
  describe(`direct offers on ${dialect}`, () => {
    const s = useModuleApi(dialect, { name: 'offers', addressBlock: 97 })
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, client2: U, company: U, fred: U, fiona: U
    let sub: number
    beforeAll(async () => {
      sub = (await structural(s.database)).sub.id
      client = await s.t.user('client', 'Clara', 'Client')
      client2 = await s.t.user('client', 'Carl', 'Second')
      company = await s.t.user('company', 'Cora', 'Company')
      fred = await s.t.user('freelancer', 'Fred', 'Freelancer')
      fiona = await s.t.user('freelancer', 'Fiona', 'Second')
    }, 60_000)

    let n = 0
    const offerBody = (over: Record<string, unknown> = {}) => ({
      freelancerId: fred.id,
      title: `Retaining wall design number ${++n}`,
      description:
        'Design a two metre retaining wall along the garden boundary, with drainage and calculations.',
      subcategoryId: sub,
      budgetType: 'fixed',
      budgetMinor: 120000,
      currency: 'EUR',
      durationDays: 20,
      installments: [
        { title: 'Calculations', amountMinor: 70000, dueDate: '2030-01-10' },
        { title: 'Drawings', amountMinor: 50000 },
      ],
      message: 'Your wall in Bath was excellent.',
      ...over,
    })
    const offer = (token: string, body: Record<string, unknown>) =>
      s.t.call('POST', 'offers', { token, body })
    const make = async (over: Record<string, unknown> = {}) => {
      const r = await offer(client.token, offerBody(over))
      expect(r.status, r.text).toBe(200)
      return r.json as { id: number; projectId: number; title: string }
    }
    const act = (token: string, id: number, step: 'accept' | 'decline' | 'withdraw', body?: unknown) =>
      s.t.call('POST', `offers/${id}/${step}`, { token, body })
    const counts = async () => {
      const db = s.database.db
      const [o, p, c, pr] = await Promise.all(
        (['direct_offer', 'project', 'contract', 'proposal'] as const).map(async (t) =>
          Number(
            (
              await db
                .selectFrom(t)
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ),
      )
      return { offers: o, projects: p, contracts: c, proposals: pr }
    }
    const stateOf = async (id: number) =>
      (
        await s.database.db
          .selectFrom('direct_offer')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).status

    test('bad input, a non-client, oneself or a non-freelancer: 400/403/404 naming the field, nothing made', async () => {
      const before = await counts()
      const refusals: Array<[string, string, Record<string, unknown>, number, string?]> = [
        ['a freelancer offers', fiona.token, offerBody(), 403],
        ['to oneself', client.token, offerBody({ freelancerId: client.id }), 400, 'freelancerId'],
        ['to a client', client.token, offerBody({ freelancerId: client2.id }), 400, 'freelancerId'],
        ['to a company', client.token, offerBody({ freelancerId: company.id }), 400, 'freelancerId'],
        ['to nobody', client.token, offerBody({ freelancerId: 999_999 }), 404],
        ['a short title', client.token, offerBody({ title: 'Wall' }), 400, 'title'],
        ['a short description', client.token, offerBody({ description: 'Short' }), 400, 'description'],
        ['no category', client.token, offerBody({ subcategoryId: undefined }), 400, 'subcategoryId'],
        ['an unknown category', client.token, offerBody({ subcategoryId: 999_999 }), 400, 'subcategoryId'],
        ['no price', client.token, offerBody({ budgetMinor: 0 }), 400, 'budgetMinor'],
        ['a strange type', client.token, offerBody({ budgetType: 'barter' }), 400, 'budgetType'],
        ['a plan off the price', client.token, offerBody({ budgetMinor: 100000 }), 400, 'installments'],
        [
          'too many installments',
          client.token,
          offerBody({
            budgetMinor: 21000,
            installments: Array.from({ length: 21 }, (_, i) => ({ title: `Part ${i}`, amountMinor: 1000 })),
          }),
          400,
          'installments',
        ],
        [
          'a bad due date',
          client.token,
          offerBody({ installments: [{ title: 'All', amountMinor: 120000, dueDate: '2030-13-45' }] }),
          400,
          'installments.0.dueDate',
        ],
        ['hourly without hours', client.token, offerBody({ budgetType: 'hourly' }), 400, 'weeklyHours'],
        [
          'too many hours',
          client.token,
          offerBody({ budgetType: 'hourly', weeklyHours: 81 }),
          400,
          'weeklyHours',
        ],
        ['no duration', client.token, offerBody({ durationDays: undefined }), 400, 'durationDays'],
        ['no expiry', client.token, offerBody({ expiresInDays: 0 }), 400, 'expiresInDays'],
        ['a long expiry', client.token, offerBody({ expiresInDays: 31 }), 400, 'expiresInDays'],
        ['a long message', client.token, offerBody({ message: 'x'.repeat(2001) }), 400, 'message'],
      ]
      for (const [why, token, body, status, field] of refusals) {
        const r = await offer(token, body)
        expect(r.status, `${why}: ${r.text}`).toBe(status)
        if (field) expect(Object.keys(r.json.errors ?? {}), why).toContain(field)
      }
      expect(await counts()).toEqual(before)
    })

    test('the offer is private: its project is 404 to others and unfindable; the same work twice is 409', async () => {
      const made = await make()
      expect(made).toMatchObject({
        status: 'pending',
        budgetType: 'fixed',
        budgetMinor: 120000,
        durationDays: 20,
        installments: [
          { title: 'Calculations', amountMinor: 70000, dueDate: '2030-01-10' },
          { title: 'Drawings', amountMinor: 50000 },
        ],
        message: 'Your wall in Bath was excellent.',
        client: { id: client.id },
        freelancer: { id: fred.id },
        contractId: null,
      })
      const days =
        (Date.parse((made as unknown as { expiresAt: string }).expiresAt) - Date.now()) / 86_400_000
      expect(days).toBeGreaterThan(6.9)
      expect(days).toBeLessThanOrEqual(7)
      for (const who of [fiona.token, client2.token])
        expect(
          (await s.t.call('GET', `projects/${made.projectId}/details-for-freelancer`, { token: who })).status,
        ).toBe(404)
      // A public project of the same title is found; the offer's is not.
      const control = await publish(s.t, client.token, projectBody(sub, [], { title: made.title }))
      const found = await s.t.call('GET', `projects?search=${encodeURIComponent(made.title)}`)
      const ids = found.json.data.map((p: { id: number }) => p.id)
      expect(ids).toContain(control)
      expect(ids).not.toContain(made.projectId)
      // Outsiders are told the offer does not exist, and the wrong party's move is refused the same way.
      for (const token of [fiona.token, client2.token]) {
        expect((await s.t.call('GET', `offers/${made.id}`, { token })).status).toBe(404)
        expect((await act(token, made.id, 'accept')).status).toBe(404)
        expect((await act(token, made.id, 'decline', { reason: 'No' })).status).toBe(404)
        expect((await act(token, made.id, 'withdraw')).status).toBe(404)
      }
      expect((await act(client.token, made.id, 'accept')).status).toBe(404)
      expect((await act(fred.token, made.id, 'withdraw')).status).toBe(404)
      expect((await s.t.call('GET', `offers/${made.id}`)).status).toBe(401)
      // Neither invitations nor edits change an offer's project.
      const invite = await s.t.call('POST', `projects/${made.projectId}/invitations`, {
        token: client.token,
        body: { freelancerId: fiona.id, message: 'Hi' },
      })
      expect(invite.status, invite.text).toBe(409)
      // The invite form lists the client's open projects that can take invitations: not the offer's.
      const mine = async (query: string) =>
        (await s.t.call('GET', `projects/client?status=open${query}`, { token: client.token })).json.data.map(
          (p: { id: number }) => p.id,
        )
      expect(await mine('')).toEqual(expect.arrayContaining([made.projectId, control]))
      const invitable = await mine('&invitable=true')
      expect(invitable).toContain(control)
      expect(invitable).not.toContain(made.projectId)
      const before = await counts()
      const again = await offer(client.token, offerBody({ title: made.title }))
      expect(again.status).toBe(409)
      expect(again.json.code).toBe('offer_pending')
      expect(await counts()).toEqual(before)
      // Another freelancer may be offered the same work.
      expect(
        (await offer(client.token, offerBody({ title: made.title, freelancerId: fiona.id }))).status,
      ).toBe(200)
      const sent = await s.t.call('GET', 'offers/sent?status=pending', { token: client.token })
      expect(sent.json.data.map((o: { id: number }) => o.id)).toContain(made.id)
      const received = await s.t.call('GET', 'offers/received', { token: fred.token })
      expect(received.json.data.map((o: { id: number }) => o.id)).toContain(made.id)
      const none = await s.t.call('GET', 'offers/received', { token: fiona.token })
      expect(none.json.data.map((o: { id: number }) => o.id)).not.toContain(made.id)
    })

    test('accepting starts the contract with the installments, once; both are told; the freelancer sees the project', async () => {
      const made = await make()
      await settle(s.t)
      const accepted = await act(fred.token, made.id, 'accept')
      expect(accepted.status, accepted.text).toBe(200)
      expect(accepted.json).toMatchObject({ status: 'accepted', projectStatus: 'in_progress' })
      const contract = await s.database.db
        .selectFrom('contract')
        .selectAll()
        .where('project_id', '=', made.projectId)
        .executeTakeFirstOrThrow()
      expect(accepted.json.contractId).toBe(contract.id)
      expect(contract).toMatchObject({
        client_id: client.id,
        freelancer_id: fred.id,
        status: 'active',
        amount_minor: 120000,
        billing: 'fixed',
      })
      const installments = await s.database.db
        .selectFrom('installment')
        .select(['title', 'amount_minor', 'due_date', 'status'])
        .where('contract_id', '=', contract.id)
        .orderBy('position')
        .execute()
      expect(installments).toEqual([
        { title: 'Calculations', amount_minor: 70000, due_date: '2030-01-10', status: 'pending' },
        { title: 'Drawings', amount_minor: 50000, due_date: null, status: 'pending' },
      ])
      const before = await counts()
      for (const [token, step] of [
        [fred.token, 'accept'],
        [fred.token, 'decline'],
        [client.token, 'withdraw'],
      ] as const) {
        const r = await act(
          token,
          made.id,
          step,
          step === 'decline' ? { reason: 'Changed my mind' } : undefined,
        )
        expect(r.status, r.text).toBe(409)
        expect(r.json).toMatchObject({ code: 'offer_closed', errors: { state: ['accepted'] } })
      }
      expect(await counts()).toEqual(before)
      expect(
        (await s.t.call('GET', `projects/${made.projectId}/details-for-freelancer`, { token: fred.token }))
          .status,
      ).toBe(200)
      await settle(s.t)
      const bell = await s.database.db
        .selectFrom('notification')
        .select(['user_id', 'message_key', 'type'])
        .where('project_id', '=', made.projectId)
        .where('type', '=', 'Offer')
        .orderBy('id')
        .execute()
      expect(bell).toEqual([
        { user_id: fred.id, message_key: 'projects:notify.proposalOffer', type: 'Offer' },
        { user_id: client.id, message_key: 'projects:notify.proposalOfferAccepted', type: 'Offer' },
      ])
      expect(
        notificationTarget({ roomId: null, projectId: made.projectId, type: 'Offer' }, [Role.Freelancer]),
      ).toBe('/offers')
      const room = await s.database.db
        .selectFrom('chat_room')
        .select('id')
        .where('id', '=', Number(contract.room_id))
        .executeTakeFirst()
      expect(room).toBeTruthy()
    })

    test('an hourly offer becomes an hourly contract at its rate and weekly limit', async () => {
      const made = await make({ budgetType: 'hourly', budgetMinor: 6500, weeklyHours: 15 })
      expect(made).toMatchObject({ budgetType: 'hourly', weeklyHours: 15, installments: [] })
      expect((await act(fred.token, made.id, 'accept')).status).toBe(200)
      const contract = await s.database.db
        .selectFrom('contract')
        .select(['billing', 'hourly_rate_minor', 'weekly_limit_hours', 'amount_minor'])
        .where('project_id', '=', made.projectId)
        .executeTakeFirstOrThrow()
      expect(contract).toEqual({
        billing: 'hourly',
        hourly_rate_minor: 6500,
        weekly_limit_hours: 15,
        amount_minor: 0,
      })
    })

    test('declined with a reason, or withdrawn: the project is cancelled and the offer changes no more', async () => {
      const declined = await make()
      const noReason = await act(fred.token, declined.id, 'decline', { reason: ' ' })
      expect(noReason.status).toBe(400)
      expect(Object.keys(noReason.json.errors)).toContain('reason')
      expect(await stateOf(declined.id)).toBe('pending')
      const d = await act(fred.token, declined.id, 'decline', { reason: 'Fully booked until spring' })
      expect(d.json).toMatchObject({ status: 'declined', declineReason: 'Fully booked until spring' })
      expect(d.json.projectStatus).toBe('cancelled')
      const late = await act(fred.token, declined.id, 'accept')
      expect(late.json).toMatchObject({ code: 'offer_closed', errors: { state: ['declined'] } })

      // Cancelling the offer's project from its own page withdraws the offer, which then changes no more.
      const fromProject = await make()
      const cancelled = await s.t.call('PUT', `projects/${fromProject.projectId}/updatestate/cancelled`, {
        token: client.token,
      })
      expect(cancelled.status, cancelled.text).toBe(200)
      expect(await stateOf(fromProject.id)).toBe('withdrawn')
      const gone = await act(fred.token, fromProject.id, 'accept')
      expect(gone.json).toMatchObject({ code: 'offer_closed', errors: { state: ['withdrawn'] } })

      const withdrawn = await make()
      expect((await act(client.token, withdrawn.id, 'withdraw')).json.status).toBe('withdrawn')
      for (const r of [
        await act(fred.token, withdrawn.id, 'accept'),
        await act(client.token, withdrawn.id, 'withdraw'),
      ])
        expect(r.json).toMatchObject({ code: 'offer_closed', errors: { state: ['withdrawn'] } })
      const contract = await s.database.db
        .selectFrom('contract')
        .select('id')
        .where('project_id', 'in', [declined.projectId, withdrawn.projectId])
        .execute()
      expect(contract).toEqual([])
    })

    test('an expired offer cannot be accepted; its timer expires it and tells both', async () => {
      const made = await make({ expiresInDays: 1 })
      const past = new Date(Date.now() - 1000).toISOString()
      await s.database.db
        .updateTable('direct_offer')
        .set({ expires_at: past })
        .where('id', '=', made.id)
        .execute()
      const before = await counts()
      const r = await act(fred.token, made.id, 'accept')
      expect(r.status).toBe(409)
      expect(r.json).toMatchObject({ code: 'offer_expired', errors: { state: ['expired'] } })
      expect(await counts()).toEqual(before)
      expect(await stateOf(made.id)).toBe('pending')
      expect((await s.t.call('GET', `offers/${made.id}`, { token: fred.token })).json.status).toBe('expired')
      // The timer, due now.
      await s.database.db
        .updateTable('outbox')
        .set({ run_after: past })
        .where('topic', '=', 'projects.offer-expiry')
        .execute()
      await settle(s.t)
      expect(await stateOf(made.id)).toBe('expired')
      const project = await s.database.db
        .selectFrom('project')
        .select('status')
        .where('id', '=', made.projectId)
        .executeTakeFirstOrThrow()
      expect(project.status).toBe('cancelled')
      const told = await s.database.db
        .selectFrom('notification')
        .select('user_id')
        .where('message_key', '=', 'projects:notify.proposalOfferExpired')
        .where('project_id', '=', made.projectId)
        .execute()
      expect(told.map((t) => t.user_id).sort()).toEqual([client.id, fred.id].sort())
    })
  })
}
