import { beforeAll, describe, expect, test } from 'vitest'
import { openDatabase } from '#server/db/database.ts'
import { dialects } from '../../../tests/integration/databases.ts'
import { projectsTestApi, tinyPdf, useProjects } from '../../../tests/support/modules/projects.ts'
import { projectsOutboxHandlers } from './outbox.ts'
import { REVIEW_TOPIC } from './service.ts'
import { fund } from '../../../tests/support/modules/payments.ts'

// The projects API on both databases: every transition allowed and refused, scoping, idempotency
// and the races of issue 6 with real concurrency.
for (const dialect of dialects) {
  describe(`projects on ${dialect}`, () => {
    const s = useProjects(dialect)
    let sub: { id: number; category_id: number }
    let skills: number[]
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, client2: U, company: U, free1: U, free2: U, free3: U

    beforeAll(async () => {
      sub = await s.database.db
        .selectFrom('subcategory')
        .select(['id', 'category_id'])
        .where('slug', '=', 'structural-engineering')
        .executeTakeFirstOrThrow()
      skills = (
        await s.database.db
          .selectFrom('subcategory_skill')
          .select('skill_id')
          .where('subcategory_id', '=', sub.id)
          .orderBy('skill_id')
          .limit(3)
          .execute()
      ).map((s) => s.skill_id)
      client = await s.t.user('client', 'Clara', 'Client')
      client2 = await s.t.user('client', 'Other', 'Client')
      company = await s.t.user('company', 'Carl', 'Bauer')
      free1 = await s.t.user('freelancer', 'Fran', 'One')
      free2 = await s.t.user('freelancer', 'Fred', 'Two')
      free3 = await s.t.user('freelancer', 'Fiona', 'Three')
    }, 60_000)

    const input = (over: Record<string, unknown> = {}) => ({
      title: 'Steel beam calculations for a kitchen extension',
      description:
        'Structural calculations for removing a load-bearing wall and adding a rear extension with a flat roof.',
      subcategoryId: sub.id,
      skillIds: skills,
      budgetType: 'fixed',
      budgetMinor: 150000,
      currency: 'EUR',
      durationDays: 21,
      experienceLevel: 'intermediate',
      remote: true,
      installments: [
        { title: 'Calculations', amountMinor: 100000, dueDate: '2099-01-10' },
        { title: 'Details and drawings', amountMinor: 50000 },
      ],
      publish: true,
      ...over,
    })
    const proposal = (over: Record<string, unknown> = {}) => ({
      coverLetter: 'I have designed many steel beams for kitchen extensions and can deliver in two weeks.',
      bidMinor: 140000,
      durationDays: 14,
      installments: [
        { title: 'Calculations', amountMinor: 90000 },
        { title: 'Drawings', amountMinor: 50000 },
      ],
      ...over,
    })
    async function openProject(owner = client, over: Record<string, unknown> = {}) {
      const r = await s.t.call('POST', 'projects', { token: owner.token, body: input(over) })
      expect(r.status, r.text).toBe(200)
      return r.json as { id: number; status: string; title: string }
    }
    async function propose(projectId: number, who: U, over: Record<string, unknown> = {}) {
      const r = await s.t.call('POST', `projects/${projectId}/proposal`, {
        token: who.token,
        body: proposal(over),
      })
      expect(r.status, r.text).toBe(200)
      return r.json as { id: number; status: string }
    }

    test('a client creates a draft and publishes it; bad input is a 400 naming the field and changes nothing', async () => {
      const before = await s.database.db
        .selectFrom('project')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      const bad = await s.t.call('POST', 'projects', {
        token: client.token,
        body: input({ title: 'x', budgetMinor: 12.5, installments: [{ title: 'A', amountMinor: 1 }] }),
      })
      expect(bad.status).toBe(400)
      expect(bad.json.title).toBe('Invalid Info')
      expect(Object.keys(bad.json.errors)).toEqual(expect.arrayContaining(['title', 'budgetMinor']))
      const mismatch = await s.t.call('POST', 'projects', {
        token: client.token,
        body: input({ installments: [{ title: 'A', amountMinor: 1 }] }),
      })
      expect(mismatch.status).toBe(400)
      expect(mismatch.json.errors.installments[0]).toBe('The installments must add up to the total.')
      const onSite = await s.t.call('POST', 'projects', {
        token: client.token,
        body: input({ remote: false }),
      })
      expect(onSite.json.errors.location).toBeDefined()
      const unknownSub = await s.t.call('POST', 'projects', {
        token: client.token,
        body: input({ subcategoryId: 999999 }),
      })
      expect(unknownSub.status).toBe(400)
      expect(unknownSub.json.errors.subcategoryId).toBeDefined()
      const after = await s.database.db
        .selectFrom('project')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      expect(Number(after.n)).toBe(Number(before.n))

      const asFreelancer = await s.t.call('POST', 'projects', { token: free1.token, body: input() })
      expect(asFreelancer.status).toBe(403)
      const anonymous = await s.t.call('POST', 'projects', { body: input() })
      expect(anonymous.status).toBe(401)

      const draft = await s.t.call('POST', 'projects', {
        token: company.token,
        body: input({ publish: false, title: 'Draft footbridge review' }),
      })
      expect(draft.status).toBe(200)
      expect(draft.json).toMatchObject({
        status: 'draft',
        isOwner: true,
        budgetMinor: 150000,
        currency: 'EUR',
        installments: [
          { title: 'Calculations', amountMinor: 100000, dueDate: '2099-01-10' },
          { title: 'Details and drawings', amountMinor: 50000 },
        ],
      })
      expect(draft.json.skills).toHaveLength(skills.length)
      // A draft is the owner's alone.
      expect(
        (await s.t.call('GET', `projects/${draft.json.id}/details-for-freelancer`, { token: free1.token }))
          .status,
      ).toBe(404)
      expect(
        (await s.t.call('GET', `projects/${draft.json.id}/details-for-client`, { token: client.token }))
          .status,
      ).toBe(404)
      expect(
        (
          await s.t.call('POST', `projects/${draft.json.id}/proposal`, {
            token: free1.token,
            body: proposal(),
          })
        ).status,
      ).toBe(404)
      // Editing a draft, then the client's allowed move open; a second open is out of order.
      const edited = await s.t.call('PUT', `projects/${draft.json.id}`, {
        token: company.token,
        body: input({ publish: false, title: 'Draft footbridge structural review' }),
      })
      expect(edited.json.title).toBe('Draft footbridge structural review')
      const open = await s.t.call('PUT', `projects/${draft.json.id}/updatestate/open`, {
        token: company.token,
      })
      expect(open.json).toEqual({ id: draft.json.id, status: 'open' })
      const again = await s.t.call('PUT', `projects/${draft.json.id}/updatestate/open`, {
        token: company.token,
      })
      expect(again.status).toBe(409)
      expect(again.json.errors.state).toEqual(['open'])
      // Another client cannot move it.
      expect(
        (await s.t.call('PUT', `projects/${draft.json.id}/updatestate/cancelled`, { token: client2.token }))
          .status,
      ).toBe(403)
      const completeEarly = await s.t.call('PUT', `projects/${draft.json.id}/updatestate/completed`, {
        token: company.token,
      })
      expect(completeEarly.status).toBe(409)
      const bogus = await s.t.call('PUT', `projects/${draft.json.id}/updatestate/in_progress`, {
        token: company.token,
      })
      expect(bogus.status).toBe(400)
      expect(bogus.json.errors.state).toBeDefined()

      const log = await s.t.call('GET', `projects/${draft.json.id}/activities`, { token: company.token })
      expect(log.json.data.map((a: { action: string }) => a.action)).toEqual(['publish', 'edit', 'create'])
      expect(log.json.total).toBe(3)
      // The total is the whole history's on every page: a full one, the last one (counted without a query) and past the last.
      for (const [page, actions] of [
        [1, ['publish', 'edit']],
        [2, ['create']],
        [3, []],
      ] as const) {
        const paged = await s.t.call('GET', `projects/${draft.json.id}/activities?page=${page}&pageSize=2`, {
          token: company.token,
        })
        expect(paged.json.data.map((a: { action: string }) => a.action)).toEqual(actions)
        expect(paged.json.total).toBe(3)
      }
      expect(
        (await s.t.call('GET', `projects/${draft.json.id}/activities`, { token: free1.token })).status,
      ).toBe(404)
    })

    test("a project names its category, subcategory and skills in the reader's language, a skill newer than the kept names too", async () => {
      const { db } = s.database
      const opened = await openProject()
      const german = async () =>
        (
          await s.t.call('GET', `projects/${opened.id}/details-for-freelancer`, {
            token: free1.token,
            headers: { 'accept-language': 'de' },
          })
        ).json.project
      const names = async (table: 'category' | 'subcategory' | 'skill', ids: number[]) =>
        (
          await db.selectFrom(table).select(['id', 'name_de']).where('id', 'in', ids).orderBy('id').execute()
        ).map((r) => ({ id: r.id, name: r.name_de }))
      const seen = await german()
      expect(seen.category).toEqual((await names('category', [sub.category_id]))[0])
      expect(seen.subcategory).toEqual((await names('subcategory', [sub.id]))[0])
      expect(seen.skills).toEqual(await names('skill', skills))
      // Another instance's write reaches this one's kept names late (the bus, or their minute): the
      // new skill is read afresh instead of being left out.
      const added = await db
        .insertInto('skill')
        .values({
          slug: `late-skill-${dialect}`,
          name_en: 'Late skill',
          name_es: 'Habilidad tardía',
          name_de: 'Späte Fertigkeit',
          name_it: 'Competenza tardiva',
          name_ru: 'Поздний навык',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await db
        .insertInto('subcategory_skill')
        .values({ subcategory_id: sub.id, skill_id: added.id })
        .execute()
      const late = await openProject(client, { skillIds: [skills[0], added.id] })
      const lateSeen = (
        await s.t.call('GET', `projects/${late.id}/details-for-freelancer`, {
          token: free1.token,
          headers: { 'accept-language': 'de' },
        })
      ).json.project
      expect(lateSeen.skills).toEqual([
        ...(await names('skill', [skills[0]])),
        { id: added.id, name: 'Späte Fertigkeit' },
      ])
    })

    test('search: full text (prefix, folded), filters, sort and paging; only open projects', async () => {
      const a = await openProject(client, {
        title: 'Fundación de hormigón para nave industrial',
        description:
          'Diseño de cimentación y losa para una nave de 2000 m² en Sevilla, con estudio geotécnico disponible.',
        budgetMinor: 900000,
        installments: [],
        country: 'ES',
        remote: false,
        location: 'Sevilla',
      })
      const b = await openProject(client2, {
        title: 'Timber roof truss check',
        budgetType: 'hourly',
        budgetMinMinor: 4500,
        budgetMinor: 6000,
        hoursPerWeek: 30,
        installments: [],
        experienceLevel: 'expert',
      })
      await s.t.call('POST', 'projects', {
        token: client.token,
        body: input({ publish: false, title: 'Hidden draft hormigon' }),
      })
      const text = await s.t.call('GET', 'projects?search=cimentac')
      expect(text.status).toBe(200)
      expect(text.json.data.map((p: { id: number }) => p.id)).toEqual([a.id])
      expect((await s.t.call('GET', 'projects?search=fundacion%20sevilla')).json.data[0].id).toBe(a.id)
      const hourly = await s.t.call('GET', 'projects?budgetType=hourly&experienceLevel=expert')
      expect(hourly.json.data.map((p: { id: number }) => p.id)).toContain(b.id)
      expect(hourly.json.data.every((p: { budgetType: string }) => p.budgetType === 'hourly')).toBe(true)
      const range = await s.t.call('GET', 'projects?budgetMin=800000&budgetMax=1000000&country=es')
      expect(range.json.data.map((p: { id: number }) => p.id)).toEqual([a.id])
      const filtered = await s.t.call(
        'GET',
        `projects?categoryId=${sub.category_id}&subcategoryId=${sub.id}&skills=${skills[0]}&skills=${skills[1]}&postedWithin=1&sort=budget_high&pageSize=2`,
      )
      expect(filtered.json.pageSize).toBe(2)
      expect(filtered.json.data[0].budgetMinor).toBeGreaterThanOrEqual(filtered.json.data[1].budgetMinor)
      expect(filtered.json.total).toBeGreaterThanOrEqual(3)
      const page2 = await s.t.call('GET', `projects?subcategoryId=${sub.id}&pageSize=2&page=2`)
      expect(page2.json.page).toBe(2)
      expect((await s.t.call('GET', 'projects?search=all')).json.total).toBe(
        (await s.t.call('GET', 'projects')).json.total,
      )
      const bad = await s.t.call('GET', 'projects?postedWithin=2&sort=cheap')
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors).sort()).toEqual(['postedWithin', 'sort'])
      const home = await s.t.call('GET', 'projects/HomeSearch/projects/cimentacion')
      expect(home.json.data[0]).toMatchObject({ id: a.id, url: `/projects/details/${a.id}` })
    })

    test('proposals: one per freelancer, identical repeat is idempotent, scoping, revise with history, withdraw, reject; out of order is 409', async () => {
      const p = await openProject()
      const own = await s.t.call('POST', `projects/${p.id}/proposal`, {
        token: client.token,
        body: proposal(),
      })
      expect(own.status).toBe(403)
      const first = await propose(p.id, free1)
      expect(first.status).toBe('pending')
      const repeat = await s.t.call('POST', `projects/${p.id}/proposal`, {
        token: free1.token,
        body: proposal(),
      })
      expect(repeat.status).toBe(200)
      expect(repeat.json.id).toBe(first.id)
      const second = await s.t.call('POST', `projects/${p.id}/proposal`, {
        token: free1.token,
        body: proposal({ bidMinor: 120000, installments: [] }),
      })
      expect(second.status).toBe(409)
      expect(second.json.detail).toBe('You have already sent a proposal on this project; edit it instead')
      const badPlan = await s.t.call('POST', `projects/${p.id}/proposal`, {
        token: free2.token,
        body: proposal({ installments: [{ title: 'All', amountMinor: 5 }] }),
      })
      expect(badPlan.status).toBe(400)
      expect(badPlan.json.errors.installments).toBeDefined()
      const p2 = await propose(p.id, free2)
      expect((await s.t.call('GET', `projects/${p.id}`, { token: client.token })).status).toBe(405)

      // Freelancers cannot see or act on others' proposals; another client cannot either.
      expect(
        (await s.t.call('GET', `projects/${p.id}/client-proposals`, { token: free1.token })).status,
      ).toBe(403)
      expect(
        (await s.t.call('GET', `projects/${p.id}/client-proposals`, { token: client2.token })).status,
      ).toBe(403)
      expect(
        (await s.t.call('POST', `projects/proposals/${p2.id}/accept/${p.id}`, { token: free1.token })).status,
      ).toBe(403)
      expect(
        (
          await s.t.call('POST', `projects/proposals/${p2.id}/reject/${p.id}`, {
            token: client2.token,
            body: {},
          })
        ).status,
      ).toBe(403)
      expect(
        (await s.t.call('POST', `projects/proposals/${p2.id}/withdraw`, { token: free1.token })).status,
      ).toBe(404)
      expect(
        (await s.t.call('PUT', `projects/proposals/${p2.id}`, { token: free1.token, body: proposal() }))
          .status,
      ).toBe(404)
      const seen = await s.t.call('GET', `projects/${p.id}/details-for-freelancer`, { token: free1.token })
      expect(seen.json.proposal.id).toBe(first.id)
      expect(seen.json.canPropose).toBe(false)
      expect(JSON.stringify(seen.json)).not.toContain(`"id":${p2.id},`)
      const list = await s.t.call('GET', `projects/${p.id}/client-proposals`, { token: client.token })
      expect(list.json.data.map((x: { id: number }) => x.id).sort()).toEqual([first.id, p2.id].sort())
      // A mismatched project id is not found.
      const other = await openProject()
      expect(
        (await s.t.call('POST', `projects/proposals/${first.id}/accept/${other.id}`, { token: client.token }))
          .status,
      ).toBe(404)

      const revised = await s.t.call('PUT', `projects/proposals/${first.id}`, {
        token: free1.token,
        body: proposal({ bidMinor: 130000, installments: [] }),
      })
      expect(revised.json).toMatchObject({ bidMinor: 130000, revision: 2, status: 'pending' })
      const history = await s.t.call('GET', `projects/proposals/${first.id}/revisions`, {
        token: client.token,
      })
      expect(history.json.data).toMatchObject([{ revision: 1, bidMinor: 140000 }])
      expect(
        (await s.t.call('GET', `projects/proposals/${first.id}/revisions`, { token: free2.token })).status,
      ).toBe(404)

      const rejected = await s.t.call('POST', `projects/proposals/${p2.id}/reject/${p.id}`, {
        token: client.token,
        body: { reason: 'Budget too high' },
      })
      expect(rejected.json).toMatchObject({ status: 'rejected', rejectReason: 'Budget too high' })
      const lateWithdraw = await s.t.call('POST', `projects/proposals/${p2.id}/withdraw`, {
        token: free2.token,
      })
      expect(lateWithdraw.status).toBe(409)
      expect(lateWithdraw.json.errors.state).toEqual(['rejected'])
      const lateAccept = await s.t.call('POST', `projects/proposals/${p2.id}/accept/${p.id}`, {
        token: client.token,
      })
      expect(lateAccept.status).toBe(409)
      const withdrawn = await s.t.call('POST', `projects/proposals/${first.id}/withdraw`, {
        token: free1.token,
      })
      expect(withdrawn.json.status).toBe('withdrawn')
      expect(
        (await s.t.call('PUT', `projects/proposals/${first.id}`, { token: free1.token, body: proposal() }))
          .status,
      ).toBe(409)
      const mine = await s.t.call('GET', 'projects/freelancer/proposals?status=withdrawn', {
        token: free1.token,
      })
      expect(mine.json.data.map((x: { id: number }) => x.id)).toContain(first.id)
      // Each step is in the activity log, and each notified someone through the outbox.
      const log = await s.t.call('GET', `projects/${p.id}/activities?pageSize=50`, { token: client.token })
      expect(log.json.data.map((a: { entity: string; action: string }) => `${a.entity}.${a.action}`)).toEqual(
        expect.arrayContaining([
          'proposal.create',
          'proposal.revise',
          'proposal.reject',
          'proposal.withdraw',
        ]),
      )
      const outbox = await s.database.db
        .selectFrom('outbox')
        .select(['payload'])
        .where('topic', '=', 'projects.notify')
        .execute()
      const kinds = outbox.map((o) => JSON.parse(o.payload).kind)
      expect(kinds).toEqual(
        expect.arrayContaining([
          'proposalReceivedFrom',
          'proposalRevisedBy',
          'proposalRejected',
          'proposalWithdrawnBy',
        ]),
      )
    })

    test('accept creates the contract with the agreed installments, closes the others, repeat returns the same contract', async () => {
      const p = await openProject()
      const a = await propose(p.id, free1)
      const b = await propose(p.id, free2)
      await s.t.call('POST', `projects/subscrib/${p.id}`, { token: free3.token })
      const accepted = await s.t.call('POST', `projects/proposals/${a.id}/accept/${p.id}`, {
        token: client.token,
      })
      expect(accepted.status, accepted.text).toBe(200)
      expect(accepted.json).toMatchObject({
        projectId: p.id,
        proposalId: a.id,
        status: 'active',
        amountMinor: 140000,
        currency: 'EUR',
        roomId: expect.any(Number),
      })
      expect(
        accepted.json.installments.map((i: { title: string; amountMinor: number; status: string }) => [
          i.title,
          i.amountMinor,
          i.status,
        ]),
      ).toEqual([
        ['Calculations', 90000, 'pending'],
        ['Drawings', 50000, 'pending'],
      ])
      const repeat = await s.t.call('POST', `projects/proposals/${a.id}/accept/${p.id}`, {
        token: client.token,
      })
      expect(repeat.json.id).toBe(accepted.json.id)
      const otherAccept = await s.t.call('POST', `projects/proposals/${b.id}/accept/${p.id}`, {
        token: client.token,
      })
      expect(otherAccept.status).toBe(409)
      const closed = await s.database.db
        .selectFrom('proposal')
        .select('status')
        .where('id', '=', b.id)
        .executeTakeFirstOrThrow()
      expect(closed.status).toBe('rejected')
      const proj = await s.database.db
        .selectFrom('project')
        .select('status')
        .where('id', '=', p.id)
        .executeTakeFirstOrThrow()
      expect(proj.status).toBe('in_progress')
      // Out of the search; comments closed; delete refused; both sides see the contract.
      expect(
        (
          await s.t.call('GET', `projects?search=${encodeURIComponent('kitchen extension')}&pageSize=50`)
        ).json.data.map((x: { id: number }) => x.id),
      ).not.toContain(p.id)
      expect(
        (
          await s.t.call('POST', `projects/comment/${p.id}`, {
            token: free1.token,
            body: { body: 'Late question' },
          })
        ).status,
      ).toBe(409)
      const del = await s.t.call('DELETE', `projects/${p.id}`, { token: client.token })
      expect(del.status).toBe(409)
      expect(del.json.detail).toContain('cancel it instead')
      const fl = await s.t.call('GET', `projects/${p.id}/details-for-freelancer`, { token: free1.token })
      expect(fl.json.contract.id).toBe(accepted.json.id)
      // The losing freelancer still sees their own proposal, closed; a stranger sees nothing.
      expect(
        (await s.t.call('GET', `projects/${p.id}/details-for-freelancer`, { token: free2.token })).json
          .proposal.status,
      ).toBe('rejected')
      expect(
        (await s.t.call('GET', `projects/${p.id}/details-for-freelancer`, { token: free3.token })).status,
      ).toBe(404)
      const cl = await s.t.call('GET', `projects/${p.id}/details-for-client`, { token: client.token })
      expect(cl.json.contract.id).toBe(accepted.json.id)
      expect(
        cl.json.activity.map((x: { entity: string; action: string }) => `${x.entity}.${x.action}`),
      ).toEqual(
        expect.arrayContaining(['proposal.accept', 'project.hire', 'contract.create', 'proposal.close']),
      )
      expect(
        (await s.t.call('GET', 'projects/freelancer/contracts', { token: free1.token })).json.data[0].id,
      ).toBe(accepted.json.id)
      const room = await s.t.call('POST', `projects/Createroom/${p.id}/${client.id}`, { token: free1.token })
      expect(room.json).toEqual({
        roomId: accepted.json.roomId,
        projectId: p.id,
        participants: [client.id, free1.id],
      })
      expect(
        (await s.t.call('POST', `projects/Createroom/${p.id}/${client.id}`, { token: free2.token })).status,
      ).toBe(404)
      const kinds = (
        await s.database.db
          .selectFrom('outbox')
          .select('payload')
          .where('topic', '=', 'projects.notify')
          .execute()
      ).map((o) => JSON.parse(o.payload))
      const taken = kinds
        .filter((k) => k.kind === 'projectTaken' && k.projectId === p.id)
        .flatMap((k) => k.userIds)
      expect(taken.sort()).toEqual([free2.id, free3.id].sort())
    })

    test('installments: pending → funded → submitted ⇄ changes requested → approved; completion; reviews hidden until both wrote', async () => {
      const p = await openProject()
      const a = await propose(p.id, free1)
      const contract = (
        await s.t.call('POST', `projects/proposals/${a.id}/accept/${p.id}`, { token: client.token })
      ).json
      const [i1, i2] = contract.installments
      const act = (id: number, action: string, who: U, note?: string) =>
        s.t.call('POST', `projects/installments/${id}/${action}`, {
          token: who.token,
          body: note ? { note } : {},
        })
      expect((await act(i1.id, 'submit', free1, 'Done')).status).toBe(409)
      // Funding is a payment the gateway confirms (modules/payments), not a move of its own.
      expect((await act(i1.id, 'fund', client)).status).toBe(400)
      expect((await fund(s.t.call, client, p.id, [i1.id])).session.status).toBe('succeeded')
      expect(
        (await s.t.call('GET', `projects/${p.id}/details-for-client`, { token: client.token })).json.contract
          .installments[0].status,
      ).toBe('funded')
      expect((await act(i1.id, 'approve', client)).status).toBe(409)
      const noNote = await act(i1.id, 'submit', free1)
      expect(noNote.status).toBe(409)
      const up = await s.t.upload(
        `projects/${p.id}/uploadProjectFiles?installmentId=${i1.id}`,
        free1.token,
        'calcs.pdf',
        tinyPdf(),
      )
      expect(up.status).toBe(200)
      // The installment's file shows on its installment only.
      {
        const response = await s.t.api.handler(
          new Request(`http://in-process/api/v1/projects/${p.id}/details-for-client`, {
            headers: { authorization: `Bearer ${client.token}`, accept: 'application/json' },
          }),
          {},
        )
        const view = (await response.json()) as {
          project: { attachments: unknown[] }
          contract: { installments: { id: number; files: { id: number }[] }[] }
        }
        expect(view.contract.installments.map((i) => [i.id, i.files.map((f) => f.id)])).toEqual(
          view.contract.installments.map((i) => [i.id, i.id === i1.id ? [up.json.id] : []]),
        )
        expect(view.project.attachments).toEqual([])
      }
      // A list over several projects reads the files of its contracts' installments itself.
      const mine = await s.t.call('GET', 'projects/freelancer/contracts', { token: free1.token })
      const listed = mine.json.data.find((k: { projectId: number }) => k.projectId === p.id) as {
        installments: { id: number; files: { id: number }[] }[]
      }
      expect(listed.installments.map((i) => [i.id, i.files.map((f) => f.id)])).toEqual(
        listed.installments.map((i) => [i.id, i.id === i1.id ? [up.json.id] : []]),
      )
      expect((await act(i1.id, 'submit', free1, 'Calculations attached')).json.installments[0]).toMatchObject(
        { status: 'submitted', submissionNote: 'Calculations attached' },
      )
      expect(
        (await act(i1.id, 'request-changes', client, 'Check the padstones')).json.installments[0],
      ).toMatchObject({ status: 'changes_requested', feedback: 'Check the padstones' })
      expect((await act(i1.id, 'submit', free1, 'Padstones checked')).json.installments[0].status).toBe(
        'submitted',
      )
      // Approval releases the held money at once (decision 172).
      expect((await act(i1.id, 'approve', client)).json.installments[0].status).toBe('released')
      const early = await s.t.call('PUT', `projects/${p.id}/updatestate/completed`, { token: client.token })
      expect(early.status).toBe(409)
      expect(early.json.detail).toBe('Every installment must be approved before the project is completed')
      await fund(s.t.call, client, p.id, [i2.id])
      // Money is held for the second installment: the contract cannot be cancelled.
      const cancel = await s.t.call('PUT', `projects/${p.id}/updatestate/cancelled`, { token: client.token })
      expect(cancel.status).toBe(409)
      await act(i2.id, 'submit', free1, 'Drawings')
      await act(i2.id, 'approve', client)
      // Everything is paid: the project is completed, not cancelled.
      const cancelPaid = await s.t.call('PUT', `projects/${p.id}/updatestate/cancelled`, {
        token: client.token,
      })
      expect(cancelPaid.status).toBe(409)
      expect(cancelPaid.json.detail).toBe('Every installment is paid: complete the project instead')
      const reviewEarly = await s.t.call('POST', `projects/contracts/${contract.id}/review`, {
        token: client.token,
        body: { rating: 5, body: 'Great' },
      })
      expect(reviewEarly.status).toBe(409)
      const done = await s.t.call('PUT', `projects/${p.id}/updatestate/completed`, { token: client.token })
      expect(done.json).toEqual({ id: p.id, status: 'completed' })
      expect((await act(i2.id, 'submit', free1, 'More')).status).toBe(409)

      const badReview = await s.t.call('POST', `projects/contracts/${contract.id}/review`, {
        token: client.token,
        body: { rating: 6, body: '' },
      })
      expect(badReview.status).toBe(400)
      expect(Object.keys(badReview.json.errors).sort()).toEqual(['body', 'rating'])
      const r1 = await s.t.call('POST', `projects/contracts/${contract.id}/review`, {
        token: client.token,
        body: { rating: 5, body: 'Clear, careful calculations.' },
      })
      expect(r1.json).toMatchObject({ rating: 5, visible: false })
      expect(
        (
          await s.t.call('POST', `projects/contracts/${contract.id}/review`, {
            token: client.token,
            body: { rating: 4, body: 'Again' },
          })
        ).status,
      ).toBe(409)
      expect(
        (
          await s.t.call('POST', `projects/contracts/${contract.id}/review`, {
            token: free2.token,
            body: { rating: 4, body: 'Stranger' },
          })
        ).status,
      ).toBe(404)
      // Hidden from its subject until the other side writes.
      expect(
        (await s.t.call('GET', `projects/GetCommentsAndReviewes`, { token: free1.token })).json,
      ).toMatchObject({ count: 0, toWrite: [{ contractId: contract.id, subject: { id: client.id } }] })
      // A hidden five-star review earns its subject nothing yet (the points would reveal it).
      expect(
        await s.database.db
          .selectFrom('wengaz_point_event')
          .select('id')
          .where('user_id', '=', free1.id)
          .where('reason', '=', 'five-star-review')
          .execute(),
      ).toEqual([])
      // Public profiles (no sign-in) show only visible reviews: none while one side has written.
      expect((await s.t.call('GET', `projects/reviews/${free1.id}`)).json).toMatchObject({
        count: 0,
        average: 0,
        data: [],
      })
      await s.t.call('POST', `projects/contracts/${contract.id}/review`, {
        token: free1.token,
        body: { rating: 4, body: 'Quick answers and clear drawings.' },
      })
      expect((await s.t.call('GET', `projects/reviews/${free1.id}`)).json).toMatchObject({
        count: 1,
        average: 5,
        data: [
          {
            rating: 5,
            body: 'Clear, careful calculations.',
            author: { id: client.id },
            projectId: p.id,
            visible: true,
          },
        ],
      })
      expect((await s.t.call('GET', `projects/reviews/${client.id}`)).json).toMatchObject({
        count: 1,
        average: 4,
        data: [{ rating: 4, body: 'Quick answers and clear drawings.', author: { id: free1.id } }],
      })
      expect((await s.t.call('GET', 'projects/reviews/0')).status).toBe(400)
      const forFreelancer = await s.t.call('GET', `projects/GetCommentsAndReviewes?userId=${free1.id}`, {
        token: client2.token,
      })
      expect(forFreelancer.json).toMatchObject({
        count: 1,
        average: 5,
        data: [{ body: 'Clear, careful calculations.', visible: true }],
      })
      const profile = await s.database.db
        .selectFrom('freelancer_profile')
        .select(['rating_x100', 'rating_count'])
        .where('user_id', '=', free1.id)
        .executeTakeFirstOrThrow()
      expect(profile).toEqual({ rating_x100: 500, rating_count: 1 })
      const points = await s.database.db
        .selectFrom('wengaz_point_event')
        .select(['reason', 'points'])
        .where('user_id', '=', free1.id)
        .execute()
      expect(points).toEqual(
        expect.arrayContaining([
          { reason: 'contract-completed', points: 10 },
          { reason: 'five-star-review', points: 5 },
        ]),
      )
      const log = await s.t.call('GET', `projects/${p.id}/activities?pageSize=50`, { token: free1.token })
      expect(log.json.data.map((x: { entity: string; action: string }) => `${x.entity}.${x.action}`)).toEqual(
        expect.arrayContaining([
          'installment.fund',
          'installment.submit',
          'installment.request_changes',
          'installment.approve',
          'contract.complete',
          'project.complete',
          'review.review',
        ]),
      )
    })

    test('a lone review shows after 14 days: the queued timer recomputes the rating and awards its points', async () => {
      const p = await openProject()
      const a = await propose(p.id, free3)
      const contract = (
        await s.t.call('POST', `projects/proposals/${a.id}/accept/${p.id}`, { token: client.token })
      ).json
      for (const i of contract.installments as Array<{ id: number }>) {
        await fund(s.t.call, client, p.id, [i.id])
        for (const [action, who, note] of [
          ['submit', free3, 'Done'],
          ['approve', client],
        ] as const) {
          expect(
            (
              await s.t.call('POST', `projects/installments/${i.id}/${action}`, {
                token: who.token,
                body: note ? { note } : {},
              })
            ).status,
          ).toBe(200)
        }
      }
      expect(
        (await s.t.call('PUT', `projects/${p.id}/updatestate/completed`, { token: client.token })).json
          .status,
      ).toBe('completed')
      const written = await s.t.call('POST', `projects/contracts/${contract.id}/review`, {
        token: client.token,
        body: { rating: 5, body: 'Thorough and on time.' },
      })
      expect(written.json.visible).toBe(false)
      const timer = await s.database.db
        .selectFrom('outbox')
        .select(['id', 'payload', 'run_after'])
        .where('topic', '=', REVIEW_TOPIC)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      const payload = JSON.parse(timer.payload)
      expect(payload).toEqual({ userIds: [client.id, free3.id], contractId: contract.id })
      expect(Date.parse(timer.run_after) - Date.now()).toBeGreaterThan(13.9 * 86_400_000)
      // Fourteen days later (the review's time moved back), the timer runs.
      await s.database.db
        .updateTable('review')
        .set({ visible_from: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', written.json.id)
        .execute()
      const handlers = projectsOutboxHandlers({
        db: s.database.db,
        projects: s.t.api.services.projects,
        notifications: s.t.api.services.notifications,
        hubs: null,
      })
      await handlers[REVIEW_TOPIC](payload, { id: timer.id, attempts: 0, topic: REVIEW_TOPIC })
      expect((await s.t.call('GET', `projects/reviews/${free3.id}`)).json).toMatchObject({
        count: 1,
        average: 5,
        data: [{ body: 'Thorough and on time.' }],
      })
      expect(
        await s.database.db
          .selectFrom('freelancer_profile')
          .select(['rating_x100', 'rating_count'])
          .where('user_id', '=', free3.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ rating_x100: 500, rating_count: 1 })
      const points = await s.database.db
        .selectFrom('wengaz_point_event')
        .select(['reason', 'ref'])
        .where('user_id', '=', free3.id)
        .where('reason', '=', 'five-star-review')
        .execute()
      expect(points).toEqual([{ reason: 'five-star-review', ref: String(written.json.id) }])
    })

    test('edit: a draft, or an open project without proposals, by its client only; the freelancer sees a decline reason', async () => {
      const p = await openProject()
      const edited = await s.t.call('PUT', `projects/${p.id}`, {
        token: client.token,
        body: input({ title: 'Steel beam and padstone calculations', budgetMinor: 160000, installments: [] }),
      })
      expect(edited.json).toMatchObject({
        title: 'Steel beam and padstone calculations',
        budgetMinor: 160000,
        status: 'open',
        installments: [],
      })
      expect(
        (await s.t.call('PUT', `projects/${p.id}`, { token: client2.token, body: input() })).status,
      ).toBe(403)
      expect((await s.t.call('PUT', `projects/${p.id}`, { token: free1.token, body: input() })).status).toBe(
        403,
      )
      const bad = await s.t.call('PUT', `projects/${p.id}`, {
        token: client.token,
        body: input({ title: 'x' }),
      })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors)).toEqual(['title'])
      const a = await propose(p.id, free1)
      const late = await s.t.call('PUT', `projects/${p.id}`, { token: client.token, body: input() })
      expect(late.status).toBe(409)
      expect(late.json.detail).toBe('The project has proposals; it can no longer be edited')
      const unchanged = await s.database.db
        .selectFrom('project')
        .select(['title', 'budget_minor'])
        .where('id', '=', p.id)
        .executeTakeFirstOrThrow()
      expect(unchanged).toEqual({ title: 'Steel beam and padstone calculations', budget_minor: 160000 })

      await s.t.call('POST', `projects/proposals/${a.id}/reject/${p.id}`, {
        token: client.token,
        body: { reason: 'We need a chartered engineer' },
      })
      const seen = await s.t.call('GET', `projects/${p.id}/details-for-freelancer`, { token: free1.token })
      expect(seen.json.proposal).toMatchObject({
        status: 'rejected',
        rejectReason: 'We need a chartered engineer',
      })
      const mine = await s.t.call('GET', 'projects/freelancer/proposals?status=rejected', {
        token: free1.token,
      })
      expect(mine.json.data.find((x: { id: number }) => x.id === a.id).rejectReason).toBe(
        'We need a chartered engineer',
      )
      const tooLong = await s.t.call('POST', `projects/proposals/${a.id}/reject/${p.id}`, {
        token: client.token,
        body: { reason: 'x'.repeat(2001) },
      })
      expect(tooLong.status).toBe(400)
      expect(Object.keys(tooLong.json.errors)).toEqual(['reason'])

      // Saved among: only the caller's saved projects out of the ids asked about.
      const q = await openProject()
      await s.t.call('POST', `projects/${q.id}/wishlist`, { token: free2.token })
      expect(
        (
          await s.t.call('GET', `projects/wishlist/ids?projectIds=${p.id}&projectIds=${q.id}`, {
            token: free2.token,
          })
        ).json,
      ).toEqual({ data: [q.id] })
      expect(
        (await s.t.call('GET', `projects/wishlist/ids?projectIds=${q.id}`, { token: free1.token })).json,
      ).toEqual({ data: [] })
      expect((await s.t.call('GET', `projects/wishlist/ids?projectIds=${q.id}`)).status).toBe(401)

      // In progress: no more edits.
      const r = await openProject()
      const b = await propose(r.id, free2)
      await s.t.call('POST', `projects/proposals/${b.id}/accept/${r.id}`, { token: client.token })
      const running = await s.t.call('PUT', `projects/${r.id}`, { token: client.token, body: input() })
      expect(running.status).toBe(409)
      expect(running.json.errors.state).toEqual(['in_progress'])
    })

    test('refused moves: each answers with the current state (409) or the wrong actor (403) and changes nothing', async () => {
      const p = await openProject()
      const a = await propose(p.id, free1)
      const b = await propose(p.id, free2)
      const contract = (
        await s.t.call('POST', `projects/proposals/${a.id}/accept/${p.id}`, { token: client.token })
      ).json
      const refused = async (r: Promise<{ status: number; json: any }>, status: number, state?: string) => {
        const res = await r
        expect(res.status).toBe(status)
        if (state) expect(res.json.errors.state).toEqual([state])
      }
      // An accepted proposal can be neither declined nor withdrawn nor edited; the closed one cannot be revived.
      await refused(
        s.t.call('POST', `projects/proposals/${a.id}/reject/${p.id}`, { token: client.token, body: {} }),
        409,
        'accepted',
      )
      await refused(
        s.t.call('POST', `projects/proposals/${a.id}/withdraw`, { token: free1.token }),
        409,
        'accepted',
      )
      await refused(
        s.t.call('PUT', `projects/proposals/${a.id}`, { token: free1.token, body: proposal() }),
        409,
        'accepted',
      )
      await refused(
        s.t.call('PUT', `projects/proposals/${b.id}`, { token: free2.token, body: proposal() }),
        409,
        'rejected',
      )
      await refused(
        s.t.call('POST', `projects/proposals/${b.id}/accept/${p.id}`, { token: client.token }),
        409,
        'rejected',
      )
      // Installment moves by the wrong side, and out of order.
      const [i1] = contract.installments
      const act = (action: string, who: U, note?: string) =>
        s.t.call('POST', `projects/installments/${i1.id}/${action}`, {
          token: who.token,
          body: note ? { note } : {},
        })
      await refused(act('approve', client), 409, 'pending')
      await refused(act('request-changes', client, 'More'), 409, 'pending')
      await fund(s.t.call, client, p.id, [i1.id])
      await refused(act('submit', client, 'Not mine to submit'), 403)
      await refused(
        s.t.call('POST', 'Payment/PayProjectInstallments', {
          token: client.token,
          body: { projectId: p.id, installmentIds: [i1.id] },
        }),
        409,
      )
      expect((await act('submit', free1, 'Calculations')).status).toBe(200)
      await refused(act('approve', free1), 403)
      await refused(act('request-changes', free1, 'Self review'), 403)
      await refused(act('request-changes', client), 409)
      await refused(act('submit', free1, 'Again'), 409, 'submitted')
      const row = await s.database.db
        .selectFrom('installment')
        .select(['status', 'feedback'])
        .where('id', '=', i1.id)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ status: 'submitted', feedback: null })
      // The project: no publish while in progress; not complete while work is open; freelancers cannot move it.
      await refused(
        s.t.call('PUT', `projects/${p.id}/updatestate/open`, { token: client.token }),
        409,
        'in_progress',
      )
      await refused(s.t.call('PUT', `projects/${p.id}/updatestate/completed`, { token: free1.token }), 404)
      // (completion is the contract's move first: its state answers, with the guard's reason)
      const early = await s.t.call('PUT', `projects/${p.id}/updatestate/completed`, { token: client.token })
      expect([early.status, early.json.errors.state, early.json.detail]).toEqual([
        409,
        ['active'],
        'Every installment must be approved before the project is completed',
      ])
      // A cancelled project takes no proposal, no accept and no completion.
      const q = await openProject()
      const c1 = await propose(q.id, free3)
      await s.t.call('PUT', `projects/${q.id}/updatestate/cancelled`, { token: client.token })
      await refused(
        s.t.call('POST', `projects/proposals/${c1.id}/accept/${q.id}`, { token: client.token }),
        409,
        'rejected',
      )
      await refused(
        s.t.call('PUT', `projects/proposals/${c1.id}`, { token: free3.token, body: proposal() }),
        409,
        'rejected',
      )
      await refused(
        s.t.call('PUT', `projects/${q.id}/updatestate/completed`, { token: client.token }),
        409,
        'cancelled',
      )
      await refused(
        s.t.call('PUT', `projects/${q.id}/updatestate/cancelled`, { token: client.token }),
        409,
        'cancelled',
      )
      await refused(
        s.t.call('POST', `projects/comment/${q.id}`, { token: free3.token, body: { body: 'Still open?' } }),
        409,
        'cancelled',
      )
      expect(
        (
          await s.database.db
            .selectFrom('project')
            .select('status')
            .where('id', '=', q.id)
            .executeTakeFirstOrThrow()
        ).status,
      ).toBe('cancelled')
    })

    test('cancel: an open project closes pending proposals; an in-progress one cancels its contract when no money is in flight', async () => {
      const p = await openProject()
      const a = await propose(p.id, free1)
      expect(
        (await s.t.call('PUT', `projects/${p.id}/updatestate/cancelled`, { token: client.token })).json
          .status,
      ).toBe('cancelled')
      expect(
        (
          await s.database.db
            .selectFrom('proposal')
            .select('status')
            .where('id', '=', a.id)
            .executeTakeFirstOrThrow()
        ).status,
      ).toBe('rejected')
      expect(
        (await s.t.call('PUT', `projects/${p.id}/updatestate/open`, { token: client.token })).status,
      ).toBe(409)
      const q = await openProject()
      const b = await propose(q.id, free2)
      const c = (await s.t.call('POST', `projects/proposals/${b.id}/accept/${q.id}`, { token: client.token }))
        .json
      expect(
        (await s.t.call('PUT', `projects/${q.id}/updatestate/cancelled`, { token: client.token })).json
          .status,
      ).toBe('cancelled')
      expect(
        (
          await s.database.db
            .selectFrom('contract')
            .select('status')
            .where('id', '=', c.id)
            .executeTakeFirstOrThrow()
        ).status,
      ).toBe('cancelled')
      expect(
        (
          await s.t.call('POST', 'Payment/PayProjectInstallments', {
            token: client.token,
            body: { projectId: q.id, installmentIds: [c.installments[0].id] },
          })
        ).status,
      ).toBe(409)
    })

    test('delete: drafts and open projects without a contract; others 404/403', async () => {
      const p = await openProject()
      expect((await s.t.call('DELETE', `projects/${p.id}`, { token: client2.token })).status).toBe(403)
      expect((await s.t.call('DELETE', `projects/${p.id}`, { token: free1.token })).status).toBe(403)
      const d = await s.t.call('POST', 'projects', { token: client.token, body: input({ publish: false }) })
      expect((await s.t.call('DELETE', `projects/${d.json.id}`, { token: client2.token })).status).toBe(404)
      expect((await s.t.call('DELETE', `projects/${d.json.id}`, { token: client.token })).json).toEqual({
        ok: true,
      })
      expect((await s.t.call('DELETE', `projects/${p.id}`, { token: client.token })).json).toEqual({
        ok: true,
      })
      expect(
        (await s.t.call('GET', `projects/${p.id}/details-for-freelancer`, { token: free1.token })).status,
      ).toBe(404)
    })

    test('wishlist, subscriptions, comments, attachments and who may read them', async () => {
      const p = await openProject()
      expect((await s.t.call('POST', `projects/${p.id}/wishlist`, { token: free1.token })).json).toEqual({
        ok: true,
      })
      expect((await s.t.call('POST', `projects/${p.id}/wishlist`, { token: free1.token })).json).toEqual({
        ok: true,
      })
      expect(
        (await s.t.call('GET', 'projects/wishlist', { token: free1.token })).json.data.map(
          (x: { id: number }) => x.id,
        ),
      ).toEqual([p.id])
      expect(
        (await s.t.call('GET', `projects/${p.id}/details-for-freelancer`, { token: free1.token })).json
          .project.wishlisted,
      ).toBe(true)
      await s.t.call('DELETE', `projects/${p.id}/wishlist`, { token: free1.token })
      expect((await s.t.call('GET', 'projects/wishlist', { token: free1.token })).json.data).toEqual([])
      expect((await s.t.call('POST', `projects/subscrib/${p.id}`, { token: free2.token })).json).toEqual({
        ok: true,
      })
      expect(
        (await s.t.call('GET', `projects/${p.id}/details-for-freelancer`, { token: free2.token })).json
          .project.subscribed,
      ).toBe(true)

      const q = await s.t.call('POST', `projects/comment/${p.id}`, {
        token: free1.token,
        body: { body: 'Are the foundations known?' },
      })
      expect(q.json).toMatchObject({ body: 'Are the foundations known?', isClient: false, parentId: null })
      const ans = await s.t.call('POST', `projects/comment/${p.id}`, {
        token: client.token,
        body: { body: 'No, a trial pit is planned.', parentId: q.json.id },
      })
      expect(ans.json.isClient).toBe(true)
      expect(
        (await s.t.call('POST', `projects/comment/${p.id}`, { token: client.token, body: { body: ' ' } }))
          .status,
      ).toBe(400)
      expect((await s.t.call('GET', `projects/comment/${p.id}`)).json.data).toHaveLength(2)

      const up = await s.t.upload(`projects/${p.id}/uploadProjectFiles`, client.token, 'spec.pdf', tinyPdf())
      expect(up.status).toBe(200)
      expect(up.json).toMatchObject({
        name: 'spec.pdf',
        attachmentType: 4,
        url: `files/${up.json.id}/download`,
      })
      expect(
        (await s.t.upload(`projects/${p.id}/uploadProjectFiles`, free1.token, 'x.pdf', tinyPdf())).status,
      ).toBe(403)
      const exe = await s.t.upload(
        `projects/${p.id}/uploadProjectFiles`,
        client.token,
        'virus.exe',
        Buffer.from('MZ'),
      )
      expect(exe.status).toBe(400)
      expect(
        (await s.t.call('GET', `projects/${p.id}/attachments`, { token: free1.token })).json.data.map(
          (f: { id: number }) => f.id,
        ),
      ).toEqual([up.json.id])
      const read = async (token?: string, id = up.json.id) => {
        // The body is read to the end, so no file stream is left open behind the test.
        const r = await s.t.raw('GET', `files/${id}/download`, { token })
        await r.arrayBuffer()
        return r.status
      }
      expect(await read(free1.token)).toBe(200)
      expect(await read()).toBe(401)
      // A proposal's file is for its freelancer and the client only.
      const prop = await propose(p.id, free1)
      const pf = await s.t.upload(
        `projects/${p.id}/uploadProjectFiles?proposalId=${prop.id}`,
        free1.token,
        'cv.pdf',
        tinyPdf(),
      )
      expect(pf.status).toBe(200)
      expect(
        (
          await s.t.upload(
            `projects/${p.id}/uploadProjectFiles?proposalId=${prop.id}`,
            free2.token,
            'cv.pdf',
            tinyPdf(),
          )
        ).status,
      ).toBe(404)
      expect(await read(client.token, pf.json.id)).toBe(200)
      expect(await read(free2.token, pf.json.id)).toBe(404)
      // Each file shows where it belongs.
      const shown = async (path: string, token: string) => {
        const response = await s.t.api.handler(
          new Request(`http://in-process/api/v1/projects/${p.id}/${path}`, {
            headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          }),
          {},
        )
        return (await response.json()) as {
          project: { attachments: { id: number }[] }
          proposals?: { id: number; attachments: { id: number }[] }[]
          proposal?: { attachments: { id: number }[] }
        }
      }
      {
        const ofClient = await shown('details-for-client', client.token)
        expect(ofClient.project.attachments.map((f) => f.id)).toEqual([up.json.id])
        expect(ofClient.proposals!.find((x) => x.id === prop.id)!.attachments.map((f) => f.id)).toEqual([
          pf.json.id,
        ])
        const ofFreelancer = await shown('details-for-freelancer', free1.token)
        expect(ofFreelancer.project.attachments.map((f) => f.id)).toEqual([up.json.id])
        expect(ofFreelancer.proposal!.attachments.map((f) => f.id)).toEqual([pf.json.id])
      }
      // A list over several projects reads its proposals' files itself.
      const proposalsOfFree1 = await s.t.call('GET', 'projects/freelancer/proposals', { token: free1.token })
      expect(
        proposalsOfFree1.json.data
          .find((x: { id: number }) => x.id === prop.id)
          .attachments.map((f: { id: number }) => f.id),
      ).toEqual([pf.json.id])
      expect(
        (await s.t.call('DELETE', `projects/${p.id}/attachments/${up.json.id}`, { token: free1.token }))
          .status,
      ).toBe(404)
      // A removed attachment loses its row at once and its bytes once the outbox has run (decision 012).
      const key = (
        await s.database.db
          .selectFrom('stored_file')
          .select('storage_key')
          .where('id', '=', up.json.id)
          .executeTakeFirstOrThrow()
      ).storage_key
      const keys = async () => {
        const found = new Set<string>()
        for await (const entry of s.t.api.services.files.storage.list()) found.add(entry.key)
        return found
      }
      expect((await keys()).has(key)).toBe(true)
      expect(
        (await s.t.call('DELETE', `projects/${p.id}/attachments/${up.json.id}`, { token: client.token }))
          .json,
      ).toEqual({ ok: true })
      await s.t.api.jobs.outbox.drain()
      expect((await keys()).has(key)).toBe(false)
      expect(
        await s.database.db
          .selectFrom('stored_file')
          .select('id')
          .where('id', '=', up.json.id)
          .executeTakeFirst(),
      ).toBeUndefined()
    })

    test('race: two accepts of different proposals at the same moment make exactly one contract (two connections)', async () => {
      // PostgreSQL: a second pool, so the two transactions really run at the same time on two
      // connections. SQLite: node:sqlite is synchronous, so a second connection in this process
      // would block the thread while the first waits for it; both APIs share the one handle, as the
      // server does (two processes on one file are covered in race-process.test.ts).
      const other = dialect === 'postgres' ? await openDatabase(s.testDb.target) : s.database
      const t2 = projectsTestApi(other)
      try {
        for (let round = 0; round < 3; round++) {
          const p = await openProject()
          const a = await propose(p.id, free1)
          const b = await propose(p.id, free2)
          const [r1, r2] = await Promise.all([
            s.t.call('POST', `projects/proposals/${a.id}/accept/${p.id}`, { token: client.token }),
            t2.call('POST', `projects/proposals/${b.id}/accept/${p.id}`, { token: client.token }),
          ])
          expect([r1.status, r2.status].sort()).toEqual([200, 409])
          const contracts = await s.database.db
            .selectFrom('contract')
            .select(['id', 'proposal_id'])
            .where('project_id', '=', p.id)
            .execute()
          expect(contracts).toHaveLength(1)
          const statuses = await s.database.db
            .selectFrom('proposal')
            .select(['id', 'status'])
            .where('project_id', '=', p.id)
            .orderBy('id')
            .execute()
          expect(statuses.map((s) => s.status).sort()).toEqual(['accepted', 'rejected'])
          // The same accept twice at once: one contract, both answers name it.
          const q = await openProject()
          const c = await propose(q.id, free3)
          const [s1, s2] = await Promise.all([
            s.t.call('POST', `projects/proposals/${c.id}/accept/${q.id}`, { token: client.token }),
            t2.call('POST', `projects/proposals/${c.id}/accept/${q.id}`, { token: client.token }),
          ])
          expect([s1.status, s2.status]).toEqual([200, 200])
          expect(s1.json.id).toBe(s2.json.id)
        }
      } finally {
        await t2.close()
        if (other !== s.database) await other.close()
      }
    }, 60_000)

    test('race: a double submit of the same proposal at the same moment makes one proposal', async () => {
      const other = dialect === 'postgres' ? await openDatabase(s.testDb.target) : s.database
      const t2 = projectsTestApi(other)
      try {
        const p = await openProject()
        const [r1, r2] = await Promise.all([
          s.t.call('POST', `projects/${p.id}/proposal`, { token: free1.token, body: proposal() }),
          t2.call('POST', `projects/${p.id}/proposal`, { token: free1.token, body: proposal() }),
        ])
        expect([r1.status, r2.status], r1.text + r2.text).toEqual([200, 200])
        expect(r1.json.id).toBe(r2.json.id)
        const rows = await s.database.db
          .selectFrom('proposal')
          .select('id')
          .where('project_id', '=', p.id)
          .execute()
        expect(rows).toHaveLength(1)
        expect(
          (
            await s.database.db
              .selectFrom('project')
              .select('proposal_count')
              .where('id', '=', p.id)
              .executeTakeFirstOrThrow()
          ).proposal_count,
        ).toBe(1)
      } finally {
        await t2.close()
        if (other !== s.database) await other.close()
      }
    }, 30_000)
  })
}
