import { beforeAll, describe, expect, test } from 'vitest'
import type { Db } from '#server/db/database.ts'
import { portableDialects } from '../../../../tests/integration/databases.ts'
import {
  fund,
  installmentRows,
  paymentsTestApi,
  usePayments,
} from '../../../../tests/support/modules/payments.ts'
import { daysAgo, hourlyContractFor, mondayWeeksAgo } from '../../../../tests/support/modules/timesheets.ts'

// An hourly contract is not completed while a week of its timesheet is open (decision 334): time
// logged and not submitted, a week submitted or disputed, or approved and not paid. The refusal is a
// 409 with a stable code naming the week, nothing changes, and the contract's answer says the same
// beforehand (with this week's hours) so the pages can explain it.

for (const dialect of portableDialects) {
  describe(`completing an hourly contract on ${dialect}`, () => {
    const s = usePayments(dialect)
    let database: Db
    let t: ReturnType<typeof paymentsTestApi>
    type U = { id: number; token: string }
    let client: U, freelancer: U
    beforeAll(() => {
      ;({ database, t, client, freelancer } = s)
    })

    test('each open state of a week refuses completion with timesheet_week_open; once the week is paid the project completes; both dashboards show the hourly terms and whose move it is', async () => {
      const c = await hourlyContractFor(t.call, database, client, freelancer, { rateMinor: 5000 })
      const path = `projects/${c.projectId}/timesheets`
      const lastWeek = mondayWeeksAgo(1)
      const log = (date: string, hours: number) =>
        t.call('POST', `${path}/entries`, {
          token: freelancer.token,
          body: { date, hours, description: 'Site visit' },
        })
      const weekId = (await log(lastWeek, 3)).json.week.id as number
      const today = await log(daysAgo(0), 1.5)
      expect(today.status, today.text).toBe(200)
      const move = (action: string, who: U, body?: unknown) =>
        t.call('POST', `${path}/weeks/${weekId}/${action}`, { token: who.token, body })
      const complete = () =>
        t.call('PUT', `projects/${c.projectId}/updatestate/completed`, { token: client.token })
      const hourly = async (who: U = client) =>
        (
          await t.call(
            'GET',
            `projects/${c.projectId}/details-for-${who === client ? 'client' : 'freelancer'}`,
            {
              token: who.token,
            },
          )
        ).json.contract.hourly
      const refusedAs = async (state: string) => {
        const r = await complete()
        expect(r.status, r.text).toBe(409)
        expect(r.json).toMatchObject({
          code: 'timesheet_week_open',
          errors: { week: [lastWeek], state: [state] },
        })
        expect(await hourly()).toMatchObject({ openWeek: { weekStart: lastWeek, status: state } })
      }

      const first = { thisWeekHours: 1.5, openWeek: { weekStart: lastWeek, status: 'open' } }
      expect(await hourly()).toEqual(first)
      expect(await hourly(freelancer)).toEqual(first)
      // Both dashboards show the hourly terms and whose move the open week waits for.
      const card = async (who: U) =>
        (await t.call('GET', 'dashboard', { token: who.token })).json.contracts.items.find(
          (i: { contractId: number }) => i.contractId === c.contractId,
        )
      const terms = { rateMinor: 5000, currency: 'EUR', weeklyLimitHours: 40, ...first }
      expect(await card(client)).toMatchObject({ hourly: terms, waitingOn: 'freelancer', yourTurn: false })
      expect(await card(freelancer)).toMatchObject({ hourly: terms, yourTurn: true, installmentsTotal: 0 })
      await refusedAs('open')
      expect((await move('submit', freelancer)).status).toBe(200)
      await refusedAs('submitted')
      expect(await card(client)).toMatchObject({ waitingOn: 'client', yourTurn: true })
      expect((await move('dispute', client, { reason: 'Two visits, not three' })).status).toBe(200)
      await refusedAs('disputed')
      expect((await move('submit', freelancer)).status).toBe(200)
      expect((await move('approve', client)).status).toBe(200)
      await refusedAs('unpaid')
      const project = await database.db
        .selectFrom('project')
        .select('status')
        .where('id', '=', c.projectId)
        .executeTakeFirstOrThrow()
      expect(project.status).toBe('in_progress')

      const [week] = await installmentRows(database, c.contractId)
      expect((await fund(t.call, client, c.projectId, [week!.id])).status).toBe(200)
      // This week's time is still open; once it is removed, nothing is.
      expect(await hourly()).toMatchObject({ openWeek: { status: 'open', weekStart: mondayWeeksAgo(0) } })
      await t.call('DELETE', `${path}/entries/${today.json.week.entries[0].id}`, { token: freelancer.token })
      expect(await hourly()).toEqual({ thisWeekHours: 0, openWeek: null })
      const done = await complete()
      expect(done.status, done.text).toBe(200)
      expect(done.json.status).toBe('completed')
    })
  })
}
