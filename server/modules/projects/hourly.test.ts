import { beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { useProjects } from '../../../tests/support/modules/projects.ts'

// Hourly terms on both databases (issue 40 item 3, decision 323): an hourly project's rate range and
// hours a week, an hourly proposal's rate and hours without installments, and the contract billed
// by the hour that accepting it starts.
for (const dialect of portableDialects) {
  describe(`hourly terms on ${dialect}`, () => {
    const s = useProjects(dialect)
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, free1: U, free2: U
    let subcategoryId: number

    beforeAll(async () => {
      subcategoryId = (
        await s.database.db
          .selectFrom('subcategory')
          .select('id')
          .where('slug', '=', 'construction-supervision')
          .executeTakeFirstOrThrow()
      ).id
      client = await s.t.user('client', 'Hanna', 'Hourly')
      free1 = await s.t.user('freelancer', 'Hugo', 'One')
      free2 = await s.t.user('freelancer', 'Helga', 'Two')
    }, 60_000)

    const project = (over: Record<string, unknown> = {}) => ({
      title: 'Part-time site supervision for a school extension',
      description: 'Two site visits a week during the structure phase, with photo reports and checklists.',
      subcategoryId,
      budgetType: 'hourly',
      budgetMinMinor: 4000,
      budgetMinor: 6000,
      hoursPerWeek: 20,
      currency: 'EUR',
      remote: true,
      publish: true,
      ...over,
    })
    const proposal = (over: Record<string, unknown> = {}) => ({
      coverLetter: 'I supervise reinforcement and concrete pours every week and write clear photo reports.',
      bidMinor: 4500,
      durationDays: 90,
      weeklyHours: 16,
      ...over,
    })
    const post = (body: Record<string, unknown>) =>
      s.t.call('POST', 'projects', { token: client.token, body })
    async function hourlyProject(over: Record<string, unknown> = {}) {
      const r = await post(project(over))
      expect(r.status, r.text).toBe(200)
      return r.json as { id: number }
    }
    const propose = (projectId: number, who: U, over: Record<string, unknown> = {}) =>
      s.t.call('POST', `projects/${projectId}/proposal`, { token: who.token, body: proposal(over) })
    async function hourlyContract() {
      const p = await hourlyProject()
      const sent = await propose(p.id, free1)
      expect(sent.status, sent.text).toBe(200)
      const accepted = await s.t.call('POST', `projects/proposals/${sent.json.id}/accept/${p.id}`, {
        token: client.token,
      })
      expect(accepted.status, accepted.text).toBe(200)
      return { projectId: p.id, contract: accepted.json }
    }

    test('an hourly project states its rate range and hours a week; a bad range or hours name their field', async () => {
      const made = await post(
        project({ installments: [{ title: 'Ignored', amountMinor: 100 }], durationDays: 120 }),
      )
      expect(made.status, made.text).toBe(200)
      // Installments do not belong to an hourly project: the server drops them (decision 323).
      expect(made.json).toMatchObject({
        budgetType: 'hourly',
        budgetMinMinor: 4000,
        budgetMinor: 6000,
        hoursPerWeek: 20,
        installments: [],
      })
      const card = await s.t.call('GET', 'projects/client', { token: client.token })
      expect(card.json.data.find((p: { id: number }) => p.id === made.json.id)).toMatchObject({
        budgetMinMinor: 4000,
        hoursPerWeek: 20,
      })

      const before = await s.database.db
        .selectFrom('project')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      const reversed = await post(project({ budgetMinMinor: 7000 }))
      expect(reversed.status).toBe(400)
      expect(reversed.json.errors).toEqual({
        budgetMinMinor: ['The lowest rate cannot be above the highest.'],
      })
      const missing = await post(project({ budgetMinMinor: undefined, hoursPerWeek: undefined }))
      expect(missing.status).toBe(400)
      expect(Object.keys(missing.json.errors).sort()).toEqual(['budgetMinMinor', 'hoursPerWeek'])
      for (const hoursPerWeek of [0, 81, 12.5]) {
        const bad = await post(project({ hoursPerWeek }))
        expect(bad.status, String(hoursPerWeek)).toBe(400)
        expect(bad.json.errors.hoursPerWeek).toEqual(['Enter a number of hours from 1 to 80.'])
      }
      const after = await s.database.db
        .selectFrom('project')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      expect(Number(after.n)).toBe(Number(before.n))

      // The same range on a fixed price is not its business: a fixed project keeps none of it.
      const fixed = await post(project({ budgetType: 'fixed', budgetMinor: 150000, budgetMinMinor: 9000000 }))
      expect(fixed.status, fixed.text).toBe(200)
      expect(fixed.json).toMatchObject({ budgetType: 'fixed', budgetMinMinor: null, hoursPerWeek: null })
    })

    test('an hourly proposal bids a rate and hours a week, never installments; revisions keep the hours', async () => {
      const p = await hourlyProject()
      const noHours = await propose(p.id, free1, { weeklyHours: undefined })
      expect(noHours.status).toBe(400)
      expect(noHours.json.errors.weeklyHours).toBeDefined()
      const tooMany = await propose(p.id, free1, { weeklyHours: 81 })
      expect(tooMany.status).toBe(400)
      expect(tooMany.json.errors.weeklyHours).toEqual(['Enter a number of hours from 1 to 80.'])
      const withPlan = await propose(p.id, free1, { installments: [{ title: 'Month 1', amountMinor: 4500 }] })
      expect(withPlan.status).toBe(400)
      expect(withPlan.json.errors.installments).toEqual([
        'An hourly proposal is paid by the week: leave the installments empty.',
      ])
      expect(
        await s.database.db.selectFrom('proposal').select('id').where('project_id', '=', p.id).execute(),
      ).toEqual([])

      // Hours a week may differ from the project's; the rate may lie outside its range.
      const sent = await propose(p.id, free1, { weeklyHours: 30, bidMinor: 6500 })
      expect(sent.status, sent.text).toBe(200)
      expect(sent.json).toMatchObject({ bidMinor: 6500, weeklyHours: 30, installments: [] })
      const again = await propose(p.id, free1, { weeklyHours: 30, bidMinor: 6500 })
      expect(again.json.id).toBe(sent.json.id)
      const revised = await s.t.call('PUT', `projects/proposals/${sent.json.id}`, {
        token: free1.token,
        body: proposal({ weeklyHours: 12, bidMinor: 5000 }),
      })
      expect(revised.status, revised.text).toBe(200)
      expect(revised.json).toMatchObject({ bidMinor: 5000, weeklyHours: 12, revision: 2 })
      const revisions = await s.t.call('GET', `projects/proposals/${sent.json.id}/revisions`, {
        token: client.token,
      })
      expect(revisions.json.data).toMatchObject([{ revision: 1, bidMinor: 6500, weeklyHours: 30 }])
      const received = await s.t.call('GET', `projects/${p.id}/client-proposals`, { token: client.token })
      expect(received.json.data[0]).toMatchObject({ bidMinor: 5000, weeklyHours: 12 })
    })

    test('accepting an hourly proposal starts a contract billed by the hour, with no installments', async () => {
      const { projectId, contract } = await hourlyContract()
      expect(contract).toMatchObject({
        billing: 'hourly',
        hourlyRateMinor: 4500,
        weeklyLimitHours: 16,
        amountMinor: 0,
        currency: 'EUR',
        installments: [],
      })
      const row = await s.database.db
        .selectFrom('contract')
        .select(['billing', 'hourly_rate_minor', 'weekly_limit_hours', 'amount_minor'])
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({
        billing: 'hourly',
        hourly_rate_minor: 4500,
        weekly_limit_hours: 16,
        amount_minor: 0,
      })
      const mine = await s.t.call('GET', 'projects/freelancer/contracts', { token: free1.token })
      expect(mine.json.data.find((c: { id: number }) => c.id === contract.id)).toMatchObject({
        billing: 'hourly',
        hourlyRateMinor: 4500,
        weeklyLimitHours: 16,
      })
    })

    test('an hourly contract takes no change orders (409, nothing stored); it can still be cancelled or completed', async () => {
      const { projectId, contract } = await hourlyContract()
      for (const who of [client, free1]) {
        const r = await s.t.call('POST', `projects/${projectId}/change-orders`, {
          token: who.token,
          body: {
            description: 'One more site visit a week',
            reason: 'The contractor works on Saturdays',
            effects: [{ kind: 'add', title: 'Saturday visits', amountMinor: 50000 }],
          },
        })
        expect(r.status, r.text).toBe(409)
        expect(r.json.code).toBe('hourly_contract')
      }
      expect(
        await s.database.db
          .selectFrom('change_order')
          .select('id')
          .where('contract_id', '=', contract.id)
          .execute(),
      ).toEqual([])
      const cancelled = await s.t.call('PUT', `projects/${projectId}/updatestate/cancelled`, {
        token: client.token,
      })
      expect(cancelled.status, cancelled.text).toBe(200)
      const ended = await s.database.db
        .selectFrom('contract')
        .select('status')
        .where('id', '=', contract.id)
        .executeTakeFirstOrThrow()
      expect(ended.status).toBe('cancelled')

      const other = await hourlyContract()
      const completed = await s.t.call('PUT', `projects/${other.projectId}/updatestate/completed`, {
        token: client.token,
      })
      expect(completed.status, completed.text).toBe(200)
      expect(completed.json.status).toBe('completed')
    })

    test('a fixed-price contract keeps its installments and billing', async () => {
      const p = await post(
        project({
          budgetType: 'fixed',
          budgetMinor: 300000,
          installments: [{ title: 'Whole job', amountMinor: 300000 }],
        }),
      )
      expect(p.status, p.text).toBe(200)
      const sent = await propose(p.json.id, free2, { bidMinor: 300000, weeklyHours: 40 })
      expect(sent.status, sent.text).toBe(200)
      expect(sent.json.weeklyHours).toBeNull()
      const accepted = await s.t.call('POST', `projects/proposals/${sent.json.id}/accept/${p.json.id}`, {
        token: client.token,
      })
      expect(accepted.json).toMatchObject({
        billing: 'fixed',
        hourlyRateMinor: null,
        weeklyLimitHours: null,
        amountMinor: 300000,
      })
      expect(accepted.json.installments).toHaveLength(1)
    })
  })
}
