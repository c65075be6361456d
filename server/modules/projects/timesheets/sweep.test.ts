import { describe, expect, test } from 'vitest'
import { SANDBOX } from '#server/modules/payments/gateways/sandbox.ts'
import { dialects } from '../../../../tests/integration/databases.ts'
import { installmentRows, ledgerBroken, usePayments } from '../../../../tests/support/modules/payments.ts'
import { hourlyContractFor, mondayWeeksAgo } from '../../../../tests/support/modules/timesheets.ts'
import { TIMESHEET_REVIEW_DAYS } from '../rules.ts'

// The hourly sweep charging several contracts at once (decision 354), through the real API on both
// databases: three contracts of one client (one held account, one saved card) whose weeks were
// submitted in turns, so their ids interleave and a small batch splits each contract's weeks.
// Every week is approved, charged and released once, each contract's installments follow its
// weeks in order, and the ledger's rules hold.

for (const dialect of dialects) {
  describe(`the timesheet sweep on ${dialect}`, () => {
    const s = usePayments(dialect)

    test('contracts charged side by side each take their weeks in order, once, with the ledger whole', async () => {
      const { database, t, client, freelancer } = s
      await database.db
        .insertInto('saved_payment_method')
        .values({
          client_id: client.id,
          gateway: SANDBOX,
          method_ref: 'sbx_pm_succeeded',
          label: '•••• 4242',
          customer_ref: null,
          created_at: new Date().toISOString(),
        })
        .execute()
      const contracts = [
        await hourlyContractFor(t.call, database, client, freelancer),
        await hourlyContractFor(t.call, database, client, freelancer),
        await hourlyContractFor(t.call, database, client, freelancer),
      ]
      const ids: number[] = []
      for (const weeksAgo of [3, 2, 1])
        for (const [n, c] of contracts.entries()) {
          const path = `projects/${c.projectId}/timesheets`
          const logged = await t.call('POST', `${path}/entries`, {
            token: freelancer.token,
            body: { date: mondayWeeksAgo(weeksAgo), hours: 1 + n + weeksAgo, description: 'Site visit' },
          })
          expect(logged.status, logged.text).toBe(200)
          const id = logged.json.week.id as number
          ids.push(id)
          const submitted = await t.call('POST', `${path}/weeks/${id}/submit`, { token: freelancer.token })
          expect(submitted.status, submitted.text).toBe(200)
        }
      await database.db
        .updateTable('timesheet_week')
        .set({ submitted_at: new Date(Date.now() - (TIMESHEET_REVIEW_DAYS + 1) * 86_400_000).toISOString() })
        .where('id', 'in', ids)
        .execute()

      // Batches of two weeks, three contracts at once: a contract's later weeks come in later batches.
      expect((await t.api.services.timesheets.sweep(undefined, 2, 3)).approved).toBe(9)

      for (const c of contracts) {
        const weeks = await database.db
          .selectFrom('timesheet_week')
          .select(['week_start', 'status', 'installment_id', 'amount_minor'])
          .where('contract_id', '=', c.contractId)
          .orderBy('week_start')
          .execute()
        const installments = await installmentRows(database, c.contractId)
        expect(weeks.map((w) => w.status)).toEqual(['approved', 'approved', 'approved'])
        // The installments' positions follow the weeks' order.
        expect(installments.map((i) => i.id)).toEqual(weeks.map((w) => w.installment_id))
        expect(installments.map((i) => i.status)).toEqual(['released', 'released', 'released'])
        expect(installments.map((i) => i.amount_minor)).toEqual(weeks.map((w) => w.amount_minor))
      }
      const payments = await database.db
        .selectFrom('payment as p')
        .innerJoin('payment_installment as pi', 'pi.payment_id', 'p.id')
        .select(['pi.installment_id', 'p.status'])
        .where(
          'p.contract_id',
          'in',
          contracts.map((c) => c.contractId),
        )
        .execute()
      expect(payments).toHaveLength(9)
      expect(new Set(payments.map((p) => p.installment_id)).size).toBe(9)
      expect(payments.every((p) => p.status === 'succeeded')).toBe(true)
      expect(await ledgerBroken(database)).toEqual([])
      // A second run finds nothing due.
      expect((await t.api.services.timesheets.sweep(undefined, 2, 3)).approved).toBe(0)
    })
  })
}
