import { beforeAll, describe, expect, test } from 'vitest'
import type { Db } from '#server/db/database.ts'
import { EMAIL_TOPIC } from '#server/jobs/mailer.ts'
import { dialects } from '../../../../tests/integration/databases.ts'
import {
  card,
  contractFor,
  fund,
  installmentRows,
  ledgerBroken,
  paymentsTestApi,
  rowCount,
  usePayments,
} from '../../../../tests/support/modules/payments.ts'
import { daysAgo, hourlyContractFor, mondayWeeksAgo } from '../../../../tests/support/modules/timesheets.ts'
import { TIMESHEET_REVIEW_DAYS } from '../rules.ts'
import { addDays } from './rules.ts'

// Weekly timesheets through the real API on both databases (issue 40 item 3, decision 324): the
// weekly limit and the dates the server refuses, no change after submission, a dispute and a second
// submission, the system's approval after TIMESHEET_REVIEW_DAYS, and an approved week charged once
// as an installment that is released when paid, with the ledger's rules holding.

for (const dialect of dialects) {
  describe(`timesheets on ${dialect}`, () => {
    const s = usePayments(dialect)
    let database: Db
    let t: ReturnType<typeof paymentsTestApi>
    type U = Awaited<ReturnType<typeof t.user>>
    let client: U, freelancer: U, other: U
    beforeAll(() => {
      ;({ database, t, client, freelancer, other } = s)
    })

    const path = (projectId: number, rest = '') => `projects/${projectId}/timesheets${rest}`
    const hourly = (limitHours = 40) =>
      hourlyContractFor(t.call, database, client, freelancer, { rateMinor: 8000, limitHours })
    const log = (projectId: number, body: Record<string, unknown>, who: U = freelancer) =>
      t.call('POST', path(projectId, '/entries'), { token: who.token, body })
    const week = (projectId: number, id: number, action: string, who: U, body?: unknown) =>
      t.call('POST', path(projectId, `/weeks/${id}/${action}`), { token: who.token, body })
    const sheet = async (projectId: number, who: U, day?: string) =>
      (await t.call('GET', path(projectId, day ? `?week=${day}` : ''), { token: who.token })).json
    const weekRow = (id: number) =>
      database.db.selectFrom('timesheet_week').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    const lastWeek = mondayWeeksAgo(1)
    /** Weeks submitted a day longer ago than the review allows. */
    const unansweredSinceLongAgo = (ids: number[]) =>
      database.db
        .updateTable('timesheet_week')
        .set({ submitted_at: new Date(Date.now() - (TIMESHEET_REVIEW_DAYS + 1) * 86_400_000).toISOString() })
        .where('id', 'in', ids)
        .execute()

    test('the freelancer logs quarter hours within the weekly limit; the server refuses the rest and changes nothing', async () => {
      const c = await hourly(10)
      const first = await log(c.projectId, { date: lastWeek, hours: 6.5, description: 'Frame model' })
      expect(first.status, first.text).toBe(200)
      expect(first.json.week).toMatchObject({
        weekStart: lastWeek,
        status: 'open',
        hours: 6.5,
        amountMinor: 52000,
      })
      expect(first.json.week.entries).toHaveLength(1)
      const entries = () => rowCount(database, 'timesheet_entry')
      const before = await entries()
      const over = await log(c.projectId, {
        date: addDays(lastWeek, 1),
        hours: 3.75,
        description: 'Connections',
      })
      expect(over.status).toBe(400)
      expect(over.json.errors.hours[0]).toContain('10')
      const refusals: Array<[Record<string, unknown>, string]> = [
        [{ date: daysAgo(-1), hours: 1, description: 'Tomorrow' }, 'date'],
        [{ date: daysAgo(60), hours: 1, description: 'Before the contract' }, 'date'],
        [{ date: lastWeek, hours: 1.3, description: 'Not a quarter' }, 'hours'],
        [{ date: lastWeek, hours: 0, description: 'Nothing' }, 'hours'],
        [{ date: lastWeek, hours: 1, description: ' ' }, 'description'],
        [
          { date: lastWeek, hours: 1, description: 'A deliverable of no one', deliverableId: 999999 },
          'deliverableId',
        ],
      ]
      for (const [body, field] of refusals) {
        const r = await log(c.projectId, body)
        expect(r.status, JSON.stringify(body)).toBe(400)
        expect(Object.keys(r.json.errors)).toContain(field)
      }
      // Only the freelancer logs; anyone outside the contract does not find it.
      expect((await log(c.projectId, { date: lastWeek, hours: 1, description: 'Mine' }, client)).status).toBe(
        403,
      )
      expect((await log(c.projectId, { date: lastWeek, hours: 1, description: 'Mine' }, other)).status).toBe(
        404,
      )
      expect((await t.call('GET', path(c.projectId), { token: other.token })).status).toBe(404)
      expect(await entries()).toBe(before)
      // Exactly the limit is allowed; an edit counts the entry's new hours instead of its old ones.
      const fill = await log(c.projectId, {
        date: addDays(lastWeek, 1),
        hours: 3.5,
        description: 'Connections',
      })
      expect(fill.status, fill.text).toBe(200)
      const id = first.json.week.entries[0].id as number
      const edit = (hours: number) =>
        t.call('PUT', path(c.projectId, `/entries/${id}`), {
          token: freelancer.token,
          body: { date: lastWeek, hours, description: 'Frame model, revised' },
        })
      expect((await edit(6.75)).status).toBe(400)
      const edited = await edit(6)
      expect(edited.status, edited.text).toBe(200)
      expect(edited.json.week.hours).toBe(9.5)
      const fixed = await contractFor(t.call, database, client, freelancer, [50000])
      expect((await log(fixed.projectId, { date: daysAgo(0), hours: 1, description: 'x' })).status).toBe(409)
    })

    test('a submitted week cannot change; a dispute lets the freelancer correct it and submit it again', async () => {
      const c = await hourly()
      const logged = await log(c.projectId, { date: lastWeek, hours: 8, description: 'Load take-down' })
      const id = logged.json.week.id as number
      const entryId = logged.json.week.entries[0].id as number
      expect((await week(c.projectId, id, 'submit', client)).status).toBe(403)
      const submitted = await week(c.projectId, id, 'submit', freelancer)
      expect(submitted.status, submitted.text).toBe(200)
      expect(submitted.json.week).toMatchObject({ status: 'submitted', hours: 8, canEdit: false })
      expect((await week(c.projectId, id, 'submit', freelancer)).status).toBe(409)
      const late = await log(c.projectId, { date: addDays(lastWeek, 2), hours: 1, description: 'More' })
      expect(late.status).toBe(409)
      expect(late.json.errors.state).toEqual(['submitted'])
      const change = await t.call('PUT', path(c.projectId, `/entries/${entryId}`), {
        token: freelancer.token,
        body: { date: lastWeek, hours: 2, description: 'Less' },
      })
      expect(change.status).toBe(409)
      const remove = await t.call('DELETE', path(c.projectId, `/entries/${entryId}`), {
        token: freelancer.token,
      })
      expect(remove.status).toBe(409)
      expect((await sheet(c.projectId, client, lastWeek)).week).toMatchObject({
        canDecide: true,
        clientFeeMinor: expect.any(Number),
      })
      // The client is told: a bell in the timesheets' words, and an email.
      await t.api.jobs.outbox.drain()
      const bells = await database.db
        .selectFrom('notification')
        .select(['user_id', 'message_key'])
        .where('project_id', '=', c.projectId)
        .execute()
      expect(bells).toContainEqual({
        user_id: client.id,
        message_key: 'timesheets:notify.timesheetSubmitted',
      })
      const mails = await database.db
        .selectFrom('outbox')
        .select('payload')
        .where('topic', '=', EMAIL_TOPIC)
        .execute()
      expect(mails.some((m) => m.payload.includes(`/projects/timesheets/${c.projectId}`))).toBe(true)

      expect((await week(c.projectId, id, 'dispute', freelancer, { reason: 'No' })).status).toBe(403)
      expect((await week(c.projectId, id, 'dispute', client, { reason: ' ' })).status).toBe(400)
      const disputed = await week(c.projectId, id, 'dispute', client, { reason: 'Tuesday was a holiday' })
      expect(disputed.status, disputed.text).toBe(200)
      expect(disputed.json.week).toMatchObject({ status: 'disputed', disputeReason: 'Tuesday was a holiday' })
      expect((await week(c.projectId, id, 'approve', client)).status).toBe(409)
      const corrected = await t.call('PUT', path(c.projectId, `/entries/${entryId}`), {
        token: freelancer.token,
        body: { date: lastWeek, hours: 6, description: 'Load take-down' },
      })
      expect(corrected.status, corrected.text).toBe(200)
      expect((await week(c.projectId, id, 'submit', freelancer)).json.week.status).toBe('submitted')
      const approved = await week(c.projectId, id, 'approve', client)
      expect(approved.status, approved.text).toBe(200)
      expect(approved.json.week).toMatchObject({
        status: 'approved',
        amountMinor: 48000,
        installmentStatus: 'pending',
      })
      expect((await week(c.projectId, id, 'approve', client)).status).toBe(409)
      const rows = await installmentRows(database, c.contractId)
      expect(rows.map((i) => [i.title, i.amount_minor, i.status])).toEqual([
        [expect.stringMatching(/^Week of \d+ \w{3} \d{4} · 6 h$/), 48000, 'pending'],
      ])
    })

    test('an empty week or one not begun is not submitted', async () => {
      const c = await hourly()
      const logged = await log(c.projectId, { date: lastWeek, hours: 1, description: 'Call' })
      const id = logged.json.week.id as number
      await t.call('DELETE', path(c.projectId, `/entries/${logged.json.week.entries[0].id}`), {
        token: freelancer.token,
      })
      const empty = await week(c.projectId, id, 'submit', freelancer)
      expect(empty.status).toBe(409)
      expect(empty.json.detail).toMatch(/Log some time/)
    })

    test('two approvals at once make one installment; paying it releases the week to the freelancer and the ledger holds', async () => {
      const c = await hourly()
      const logged = await log(c.projectId, { date: lastWeek, hours: 12.5, description: 'Calculations' })
      const id = logged.json.week.id as number
      await week(c.projectId, id, 'submit', freelancer)
      const answers = await Promise.all([
        week(c.projectId, id, 'approve', client),
        week(c.projectId, id, 'approve', client),
      ])
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
      const rows = await installmentRows(database, c.contractId)
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ amount_minor: 100000, status: 'pending' })
      expect((await weekRow(id)).installment_id).toBe(rows[0].id)
      const contract = await database.db
        .selectFrom('contract')
        .select('amount_minor')
        .where('id', '=', c.contractId)
        .executeTakeFirstOrThrow()
      expect(Number(contract.amount_minor)).toBe(100000)

      const paid = await fund(t.call, client, c.projectId, [rows[0].id])
      expect(paid.status, JSON.stringify(paid.session)).toBe(200)
      expect((await installmentRows(database, c.contractId))[0].status).toBe('released')
      expect((await sheet(c.projectId, freelancer, lastWeek)).week.installmentStatus).toBe('released')
      // Charged once: the released week cannot be paid again.
      const again = await t.call('POST', 'Payment/PayProjectInstallments', {
        token: client.token,
        body: { projectId: c.projectId, installmentIds: [rows[0].id] },
      })
      expect(again.status).toBe(409)
      expect(await ledgerBroken(database)).toEqual([])
      const statement = (await t.call('GET', 'Payment/statements?pageSize=1000', { token: freelancer.token }))
        .json
      expect(statement.data).toContainEqual(
        expect.objectContaining({ movement: 'release', installmentTitle: rows[0].title }),
      )
      const activity = await database.db
        .selectFrom('project_activity')
        .select(['entity', 'action'])
        .where('project_id', '=', c.projectId)
        .execute()
      expect(activity).toEqual(
        expect.arrayContaining([
          { entity: 'timesheet_week', action: 'submit' },
          { entity: 'timesheet_week', action: 'approve' },
          { entity: 'installment', action: 'approve_hours' },
          { entity: 'installment', action: 'release' },
        ]),
      )
    })

    test("with the client's card saved at a checkout, the next approved week is charged to it and released; a declined card leaves it to the checkout", async () => {
      const c = await hourly()
      const submitWeek = async (weeksAgo: number, hours: number) => {
        const logged = await log(c.projectId, {
          date: mondayWeeksAgo(weeksAgo),
          hours,
          description: 'Site visit',
        })
        const id = logged.json.week.id as number
        await week(c.projectId, id, 'submit', freelancer)
        return id
      }
      const first = await submitWeek(3, 2)
      await week(c.projectId, first, 'approve', client)
      const [i1] = await installmentRows(database, c.contractId)
      // The client pays the first week at the checkout and keeps the card.
      const paid = await t.call('POST', 'Payment/PayProjectInstallments', {
        token: client.token,
        body: { projectId: c.projectId, installmentIds: [i1!.id] },
      })
      const charged = await t.call('POST', `Payment/sandbox/${paid.json.token}/pay`, {
        body: { ...card(), save: true },
      })
      expect(charged.status, charged.text).toBe(200)
      const saved = await database.db
        .selectFrom('saved_payment_method')
        .selectAll()
        .where('client_id', '=', client.id)
        .execute()
      expect(saved).toEqual([expect.objectContaining({ method_ref: 'sbx_pm_succeeded', label: '•••• 4242' })])

      const second = await submitWeek(2, 3)
      const approved = await week(c.projectId, second, 'approve', client)
      expect(approved.status, approved.text).toBe(200)
      expect(approved.json.week).toMatchObject({ status: 'approved', installmentStatus: 'released' })
      expect((await installmentRows(database, c.contractId)).map((i) => i.status)).toEqual([
        'released',
        'released',
      ])
      expect(await ledgerBroken(database)).toEqual([])
      // The gateway's reference, kept in its event's transaction (decision 344), is what a refund finds the payment by.
      const lastPayment = () =>
        database.db
          .selectFrom('payment')
          .select(['status', 'failure', 'token', 'gateway_ref'])
          .where('contract_id', '=', c.contractId)
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow()
      const settled = await lastPayment()
      expect(settled).toMatchObject({ status: 'succeeded', gateway_ref: `sbx_${settled.token}` })

      // A card the gateway now declines: the week waits for the checkout, and the client is told.
      await database.db
        .updateTable('saved_payment_method')
        .set({ method_ref: 'sbx_pm_failed' })
        .where('client_id', '=', client.id)
        .execute()
      const third = await submitWeek(1, 1)
      const declined = await week(c.projectId, third, 'approve', client)
      expect(declined.json.week).toMatchObject({ status: 'approved', installmentStatus: 'pending' })
      const failed = await lastPayment()
      expect(failed).toEqual({
        status: 'failed',
        failure: 'card_declined',
        token: failed.token,
        gateway_ref: `sbx_${failed.token}`,
      })
      await t.api.jobs.outbox.drain()
      const bells = await database.db
        .selectFrom('notification')
        .select('message_key')
        .where('user_id', '=', client.id)
        .where('project_id', '=', c.projectId)
        .execute()
      expect(bells.map((b) => b.message_key)).toContain('timesheets:notify.weekChargeFailed')
      await database.db.deleteFrom('saved_payment_method').where('client_id', '=', client.id).execute()
    })

    test('a week left unanswered is approved by the system once, even with two sweeps at once', async () => {
      const c = await hourly()
      const logged = await log(c.projectId, { date: mondayWeeksAgo(2), hours: 4, description: 'Site visit' })
      const id = logged.json.week.id as number
      await week(c.projectId, id, 'submit', freelancer)
      const sweep = t.api.services.timesheets.sweep
      expect((await sweep()).approved).toBe(0)
      await unansweredSinceLongAgo([id])
      const [a, b] = await Promise.all([sweep(), sweep()])
      expect(a.approved + b.approved).toBe(1)
      const row = await weekRow(id)
      expect(row).toMatchObject({ status: 'approved', decided_by: null })
      expect(row.installment_id).not.toBeNull()
      expect(await installmentRows(database, c.contractId)).toHaveLength(1)
      expect((await sheet(c.projectId, client, mondayWeeksAgo(2))).week.autoApproved).toBe(true)
    })

    test('one run of the sweep approves every week due, a batch at a time', async () => {
      const c = await hourly()
      const ids: number[] = []
      for (const weeksAgo of [3, 2, 1]) {
        const logged = await log(c.projectId, {
          date: mondayWeeksAgo(weeksAgo),
          hours: 2,
          description: 'Visit',
        })
        ids.push(logged.json.week.id as number)
        await week(c.projectId, logged.json.week.id as number, 'submit', freelancer)
      }
      await unansweredSinceLongAgo(ids)
      expect((await t.api.services.timesheets.sweep(undefined, 1)).approved).toBe(3)
      for (const id of ids) expect((await weekRow(id)).status).toBe('approved')
      expect(await installmentRows(database, c.contractId)).toHaveLength(3)
    })
  })
}
