import { describe, expect, test, vi } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { contractFor, ledgerBroken, usePayments } from '../../../tests/support/modules/payments.ts'
import { adminMoneyHelpers } from '../../../tests/support/modules/admin-money.ts'
import { SANDBOX } from '../payments/gateways/sandbox.ts'
import { createLedgerHealthMonitor } from './health-monitor.ts'
import type { Logger } from '#server/log.ts'
import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'

// The admin's "reconcile now" and the ledger's health checks (decisions 251–253, 264) on both
// databases: a stuck payout settled once and a lost refund sent again once, both audited; a planted
// bad row turning the checks red; the checks kept 15 minutes, run once at a time, a failing one
// logged as an error. These tests run in order on the money the earlier ones moved.

/** Plants a capture of one entry on `accountId`, which cannot balance; answers its id and how to take it out. */
async function plantUnbalanced(db: Kysely<Database>, accountId: number, amountMinor: number, ref: string) {
  const { id } = await db
    .insertInto('ledger_transaction')
    .values({
      kind: 'capture',
      ref,
      contract_id: null,
      installment_id: null,
      payment_id: null,
      reverses_id: null,
      memo: null,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('ledger_entry')
    .values({ transaction_id: id, account_id: accountId, amount_minor: amountMinor, currency: 'EUR' })
    .execute()
  const remove = async () => {
    await db.deleteFrom('ledger_entry').where('transaction_id', '=', id).execute()
    await db.deleteFrom('ledger_transaction').where('id', '=', id).execute()
  }
  return { id, remove }
}

for (const dialect of dialects) {
  describe(`reconcile and the ledger's checks on ${dialect}`, () => {
    const s = usePayments(dialect)
    const { t, db, admin, count, checks, earn, stuckPayout } = adminMoneyHelpers(s, dialect)

    test('reconcile now settles a stuck payout once, audited with the reason; without a reason it is a 400 and nothing moves', async () => {
      const a = await admin()
      const f = await t.user('freelancer', 'Rex', 'Reconciled')
      await earn(f, 30000)
      const id = await stuckPayout(f, 20000)
      const [audit, entries] = [await count('admin_audit'), await count('ledger_entry')]
      const empty = await t.call('POST', 'Admin/payments/reconcile', {
        token: a.token,
        body: { reason: ' ' },
      })
      expect(empty.status).toBe(400)
      expect(Object.keys(empty.json.errors)).toEqual(['reason'])
      expect([await count('admin_audit'), await count('ledger_entry')]).toEqual([audit, entries])
      const [one, two] = await Promise.all(
        [0, 1].map(() =>
          t.call('POST', 'Admin/payments/reconcile', {
            token: a.token,
            body: { reason: 'Payout stuck after the outage' },
          }),
        ),
      )
      expect(one.json.payoutsSettled + two.json.payoutsSettled).toBeGreaterThanOrEqual(1)
      expect(
        (await db().selectFrom('payout').select('status').where('id', '=', id).executeTakeFirstOrThrow())
          .status,
      ).toBe('paid')
      expect(
        (
          await db()
            .selectFrom('ledger_transaction')
            .select('ref')
            .where('ref', '=', `payout-paid:${id}`)
            .execute()
        ).length,
      ).toBe(1)
      const rows = await db()
        .selectFrom('admin_audit')
        .selectAll()
        .where('actor_id', '=', a.id)
        .orderBy('id')
        .execute()
      expect(rows.filter((r) => r.object_type === 'payout' && r.object_id === id)).toMatchObject([
        {
          action: 'reconcile',
          from_state: 'requested',
          to_state: 'paid',
          reason: 'Payout stuck after the outage',
        },
      ])
      // The summary's counts are facts the screen words (decision 321); the reason is the admin's own.
      const summaries = rows.filter((r) => r.object_type === 'payments')
      expect(summaries.map((r) => r.reason)).toEqual([
        'Payout stuck after the outage',
        'Payout stuck after the outage',
      ])
      const counts = ({ payoutsSettled, refundsSettled, left }: Record<string, number>) => ({
        payoutsSettled,
        refundsSettled,
        left,
      })
      expect(summaries.map((r) => JSON.parse(r.params!))).toEqual(
        expect.arrayContaining([counts(one.json), counts(two.json)]),
      )
      expect(
        (await t.call('GET', 'Admin/payments', { token: a.token })).json.payouts.map(
          (p: { id: number }) => p.id,
        ),
      ).not.toContain(id)
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('reconcile now sends a refund whose gateway answer was lost again, once, audited; the money moved at acceptance stays moved once', async () => {
      const a = await admin()
      const f = await t.user('freelancer', 'Ria', 'Refunded')
      const c = await earn(f, 30000)
      const asked = await t.call('POST', `RefundRequest/${c.projectId}/${c.installments[1].id}/8000`, {
        token: s.client.token,
        body: { reason: 'Part of stage two was dropped.' },
      })
      expect(
        (await t.call('POST', `refund-requests/${asked.json.id}/accept`, { token: f.token })).status,
      ).toBe(200)
      // The crash: the refund was posted and the gateway never answered (or its answer was lost).
      await db()
        .updateTable('refund_request')
        .set({
          gateway_status: 'pending',
          gateway_ref: null,
          updated_at: new Date(Date.now() - 3_600_000).toISOString(),
        })
        .where('id', '=', asked.json.id)
        .execute()
      expect(
        (await t.call('GET', 'Admin/payments', { token: a.token })).json.stuckRefunds.map(
          (r: { id: number }) => r.id,
        ),
      ).toContain(asked.json.id)
      const entries = await count('ledger_entry')
      const [one, two] = await Promise.all(
        [0, 1].map(() =>
          t.call('POST', 'Admin/payments/reconcile', {
            token: a.token,
            body: { reason: 'Refund without an answer' },
          }),
        ),
      )
      expect(one.json.refundsSettled + two.json.refundsSettled).toBe(1)
      expect(await count('ledger_entry')).toBe(entries)
      expect(
        (
          await db()
            .selectFrom('refund_request')
            .select('gateway_status')
            .where('id', '=', asked.json.id)
            .executeTakeFirstOrThrow()
        ).gateway_status,
      ).toBe('succeeded')
      const rows = await db()
        .selectFrom('admin_audit')
        .select(['action', 'from_state', 'to_state'])
        .where('object_type', '=', 'refund_request')
        .where('object_id', '=', asked.json.id)
        .execute()
      expect(rows).toEqual([{ action: 'reconcile', from_state: 'pending', to_state: 'succeeded' }])
      expect((await t.call('GET', 'Admin/payments', { token: a.token })).json.stuckRefunds).toEqual([])
      expect(await ledgerBroken(s.database)).toEqual([])
    })

    test('a planted bad row turns the checks red: an unbalanced transaction, then an installment that says funded with no money held', async () => {
      const a = await admin()
      const before = (await t.call('POST', 'Admin/payments/health-check', { token: a.token })).json
      expect(before.health.every((h: { ok: boolean }) => h.ok)).toBe(true)
      const heldAccount = await db()
        .selectFrom('ledger_account')
        .select(['id', 'balance_minor'])
        .where('kind', '=', 'client_held')
        .where('owner', '=', `user:${s.client.id}`)
        .executeTakeFirstOrThrow()
      const planted = await plantUnbalanced(db(), heldAccount.id, -777, 'planted:1')
      // A page view does not read the ledger again: it shows the last run (green), with its time.
      const viewed = (await t.call('GET', 'Admin/payments', { token: a.token })).json
      expect(viewed.checkedAt).toBe(before.checkedAt)
      expect(viewed.health).toEqual(before.health)
      expect(await checks(a)).toEqual({
        currenciesSumToZero: false,
        transactionsBalance: false,
        noNegativeBalances: true,
        runningSumsMatch: false,
        heldMatchesInstallments: false,
      })
      const problems = (
        await t.call('POST', 'Admin/payments/health-check', { token: a.token })
      ).json.health.find((h: { check: string }) => h.check === 'transactionsBalance').problems
      expect(problems).toEqual([
        { subject: `transaction ${planted.id}`, currency: 'EUR', amountMinor: -777, expectedMinor: 0 },
      ])
      await planted.remove()
      expect(Object.values(await checks(a)).every(Boolean)).toBe(true)
      const pending = await contractFor(t.call, s.database, s.client, s.freelancer, [12000])
      await db()
        .updateTable('installment')
        .set({ status: 'funded' })
        .where('id', '=', pending.installments[0].id)
        .execute()
      await db()
        .insertInto('payment')
        .values({
          token: 'planted-payment',
          client_id: s.client.id,
          contract_id: pending.contractId,
          gateway: SANDBOX,
          gateway_ref: null,
          status: 'succeeded',
          amount_minor: 12000,
          fee_minor: 360,
          total_minor: 12360,
          currency: 'EUR',
          failure: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute()
      const payment = await db()
        .selectFrom('payment')
        .select('id')
        .where('token', '=', 'planted-payment')
        .executeTakeFirstOrThrow()
      await db()
        .insertInto('payment_installment')
        .values({
          payment_id: payment.id,
          installment_id: pending.installments[0].id,
          amount_minor: 12000,
          fee_minor: 360,
          applied: 1,
        })
        .execute()
      expect(await checks(a)).toMatchObject({ transactionsBalance: true, heldMatchesInstallments: false })
      const held = (await t.call('POST', 'Admin/payments/health-check', { token: a.token })).json.health.find(
        (h: { check: string }) => h.check === 'heldMatchesInstallments',
      ).problems
      expect(held).toHaveLength(1)
      expect(held[0].expectedMinor - held[0].amountMinor).toBe(12360)
      await db().deleteFrom('payment_installment').where('payment_id', '=', payment.id).execute()
      await db()
        .updateTable('installment')
        .set({ status: 'pending' })
        .where('id', '=', pending.installments[0].id)
        .execute()
      expect(Object.values(await checks(a)).every(Boolean)).toBe(true)
    })
    test('the health checks are kept 15 minutes and run once at a time; a failing one is logged as an error (decision 264)', async () => {
      let clock = Date.parse('2026-11-24T10:00:00Z')
      const log = { error: vi.fn() } as unknown as Logger
      const monitor = createLedgerHealthMonitor({ db: db(), log, now: () => clock })
      expect(monitor.peek()).toBeNull()
      const first = await monitor.latest()
      clock += 14 * 60_000
      expect(await monitor.latest()).toBe(first)
      clock += 2 * 60_000
      const second = await monitor.latest()
      expect(second).not.toBe(first)
      expect(second.checkedAt).toBe(new Date(clock).toISOString())
      const [x, y] = await Promise.all([monitor.runNow(), monitor.runNow()])
      expect(x).toBe(y)
      expect(monitor.peek()).toBe(x)
      expect(x.sums.every((c) => c.sumMinor === 0)).toBe(true)
      expect(log.error).not.toHaveBeenCalled()
      const account = await db().selectFrom('ledger_account').select('id').limit(1).executeTakeFirstOrThrow()
      const planted = await plantUnbalanced(db(), account.id, 5, 'planted:monitor')
      try {
        const red = await monitor.runNow()
        expect(red.sums.find((c) => c.currency === 'EUR')?.sumMinor).toBe(5)
        expect(log.error).toHaveBeenCalledTimes(1)
      } finally {
        await planted.remove()
      }
    })
  })
}
