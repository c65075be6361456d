import { describe, expect, test, vi } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { Role } from '../identity/permissions.ts'
import {
  answerLost,
  contractFor,
  fund,
  ledgerBroken,
  paymentsTestApi,
  usePayments,
} from '../../../tests/support/modules/payments.ts'
import { SANDBOX } from '../payments/gateways/sandbox.ts'
import { createPayouts } from '../payments/payouts.ts'
import { weekStartsEnding } from './figures.ts'
import { createLedgerHealthMonitor } from './health-monitor.ts'
import type { Logger } from '#server/log.ts'

// The admin's money API (decisions 251–253) on both databases: SuperAdmin only (nothing changes for
// anyone else), the dashboard's figures match what was seeded, the payments screen lists pending
// payouts and refund requests (with the complaint about the installment), the ledger's checks are
// green and turn red on a planted bad row, and "reconcile now" settles a stuck payout once, audited.
type T = ReturnType<typeof paymentsTestApi>
type U = { id: number; token: string }
const GOOD_IBAN = 'DE89 3704 0044 0532 0130 00'

for (const dialect of dialects) {
  describe(`admin money on ${dialect}`, () => {
    const s = usePayments(dialect)
    const t = {
      call: (...a: Parameters<T['call']>) => s.t.call(...a),
      raw: (...a: Parameters<T['raw']>) => s.t.raw(...a),
      user: (...a: Parameters<T['user']>) => s.t.user(...a),
    }
    const db = () => s.database.db
    const admin = async () => {
      const a = await t.user('client', 'Sam', 'Support')
      await db().updateTable('user_role').set({ role: Role.SuperAdmin }).where('user_id', '=', a.id).execute()
      return a
    }
    const count = async (table: 'admin_audit' | 'ledger_entry' | 'payout') =>
      Number(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    // The checks run afresh on demand (a page view shows the last run, decision 264).
    const checks = async (a: U) =>
      Object.fromEntries(
        (
          (await t.call('POST', 'Admin/payments/health-check', { token: a.token })).json.health as Array<{
            check: string
            ok: boolean
          }>
        ).map((c) => [c.check, c.ok]),
      )
    async function earn(f: U, amount: number) {
      const c = await contractFor(t.call, s.database, s.client, f, [amount, 20000])
      await fund(
        t.call,
        s.client,
        c.projectId,
        c.installments.map((i) => i.id),
      )
      await t.call('POST', `projects/installments/${c.installments[0].id}/submit`, {
        token: f.token,
        body: { note: 'Done.' },
      })
      await t.call('POST', `projects/installments/${c.installments[0].id}/approve`, {
        token: s.client.token,
        body: {},
      })
      return c
    }
    /** A payout the gateway paid whose commit never happened (decision 250), made to look old enough to be stuck. */
    async function stuckPayout(f: U, amount: number) {
      const bank = (
        await t.call('POST', 'freelancers/AddFreelancerPaymentMethod', {
          token: f.token,
          body: { holderName: 'Fran Engineer', kind: 'bank', iban: GOOD_IBAN },
        })
      ).json.id as number
      const asked = await createPayouts({
        db: db(),
        dialect,
        gateway: answerLost(s.t.api.services.sandboxGateway),
        minimumMinor: 2000,
      }).request({ userId: f.id } as never, { amountMinor: amount, currency: 'EUR', paymentMethodId: bank })
      await db()
        .updateTable('payout')
        .set({ updated_at: new Date(Date.now() - 3_600_000).toISOString() })
        .where('id', '=', asked.id)
        .execute()
      return asked.id
    }

    test('only a SuperAdmin: 401 to a visitor, 403 to a client and a freelancer, and reconciling changes nothing for them', async () => {
      await earn(s.freelancer, 30000)
      await stuckPayout(s.freelancer, 20000)
      const [audit, payouts] = [
        await count('admin_audit'),
        await db().selectFrom('payout').select(['id', 'status']).orderBy('id').execute(),
      ]
      for (const [method, path, body] of [
        ['GET', 'Admin/dashboard'],
        ['GET', 'Admin/payments'],
        ['POST', 'Admin/payments/reconcile', { reason: 'Checking' }],
        ['POST', 'Admin/payments/health-check'],
      ] as const) {
        expect((await t.call(method, path, { body })).status, path).toBe(401)
        for (const u of [s.client, s.freelancer])
          expect((await t.call(method, path, { token: u.token, body })).status, path).toBe(403)
      }
      expect(await count('admin_audit')).toBe(audit)
      expect(await db().selectFrom('payout').select(['id', 'status']).orderBy('id').execute()).toEqual(
        payouts,
      )
    })

    test('the dashboard counts users by role, projects and contracts, and money held and released this week, per currency', async () => {
      const a = await admin()
      const f = await t.user('freelancer', 'Dana', 'Dashboard')
      const before = (await t.call('GET', 'Admin/dashboard?weeks=4', { token: a.token })).json
      await earn(f, 50000)
      const r = await t.call('GET', 'Admin/dashboard?weeks=4', { token: a.token })
      expect(r.status, r.text).toBe(200)
      expect(r.json.weekStarts).toEqual(weekStartsEnding(new Date(), 4))
      const roles = await db()
        .selectFrom('user_role')
        .select(['role', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('role')
        .execute()
      expect(
        Object.fromEntries(r.json.users.by.map((b: { key: string; count: number }) => [b.key, b.count])),
      ).toEqual(
        Object.fromEntries(
          roles.map((x) => [['', 'SuperAdmin', 'Client', 'Company', 'Freelancer'][x.role], Number(x.n)]),
        ),
      )
      expect(r.json.users.newPerWeek.at(-1)).toBe(before.users.newPerWeek.at(-1) + 0)
      expect(r.json.projects.newPerWeek.at(-1)).toBe(before.projects.newPerWeek.at(-1) + 1)
      expect(r.json.contracts.newPerWeek.at(-1)).toBe(before.contracts.newPerWeek.at(-1) + 1)
      const eur = r.json.money.find((m: { currency: string }) => m.currency === 'EUR')
      const eurBefore = before.money.find((m: { currency: string }) => m.currency === 'EUR') ?? {
        heldMinor: 0,
        releasedPerWeek: [0, 0, 0, 0],
      }
      // Funded 50,000 + 20,000 with the 3 % client fee; released the first: 51,500 left held.
      expect(eur.heldMinor - eurBefore.heldMinor).toBe(20600)
      expect(eur.heldPerWeek.at(-1)).toBe(eur.heldMinor)
      expect(eur.releasedPerWeek.at(-1) - eurBefore.releasedPerWeek.at(-1)).toBe(51500)
      const bad = await t.call('GET', 'Admin/dashboard?weeks=5', { token: a.token })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors)).toEqual(['weeks'])
    })

    test('the payments screen lists a pending payout and a disputed refund request with its complaint; the ledger checks are green', async () => {
      const a = await admin()
      const f = await t.user('freelancer', 'Pia', 'Pending')
      const c = await earn(f, 40000)
      const payoutId = await stuckPayout(f, 10000)
      const second = c.installments[1].id
      const asked = await t.call('POST', `RefundRequest/${c.projectId}/${second}/5000`, {
        token: s.client.token,
        body: { reason: 'The second stage was only half delivered.' },
      })
      expect(asked.status, asked.text).toBe(200)
      await t.call('POST', `refund-requests/${asked.json.id}/decline`, {
        token: f.token,
        body: { reason: 'It was delivered in full.' },
      })
      // The dispute files its own ticket (decision 313): the payments screen links it.
      const disputed = await t.call('POST', `refund-requests/${asked.json.id}/dispute`, {
        token: s.client.token,
      })
      expect(disputed.json.complaintId).toEqual(expect.any(Number))
      const r = await t.call('GET', 'Admin/payments', { token: a.token })
      expect(r.status, r.text).toBe(200)
      expect(r.json.payouts.find((p: { id: number }) => p.id === payoutId)).toMatchObject({
        freelancer: { id: f.id, name: 'Pia Pending' },
        amountMinor: 10000,
        currency: 'EUR',
        stuck: true,
      })
      expect(r.json.refunds.find((x: { id: number }) => x.id === asked.json.id)).toMatchObject({
        status: 'disputed',
        installment: 'Stage 2',
        amountMinor: 5000,
        complaintId: disputed.json.complaintId,
        client: { name: 'Clara Client' },
      })
      expect(r.json.health.every((h: { ok: boolean }) => h.ok)).toBe(true)
    })

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
      const planted = await db()
        .insertInto('ledger_transaction')
        .values({
          kind: 'capture',
          ref: 'planted:1',
          contract_id: null,
          installment_id: null,
          payment_id: null,
          reverses_id: null,
          memo: null,
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await db()
        .insertInto('ledger_entry')
        .values({
          transaction_id: planted.id,
          account_id: heldAccount.id,
          amount_minor: -777,
          currency: 'EUR',
        })
        .execute()
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
      await db().deleteFrom('ledger_entry').where('transaction_id', '=', planted.id).execute()
      await db().deleteFrom('ledger_transaction').where('id', '=', planted.id).execute()
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
      const planted = await db()
        .insertInto('ledger_transaction')
        .values({
          kind: 'capture',
          ref: 'planted:monitor',
          contract_id: null,
          installment_id: null,
          payment_id: null,
          reverses_id: null,
          memo: null,
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await db()
        .insertInto('ledger_entry')
        .values({ transaction_id: planted.id, account_id: account.id, amount_minor: 5, currency: 'EUR' })
        .execute()
      try {
        const red = await monitor.runNow()
        expect(red.sums.find((c) => c.currency === 'EUR')?.sumMinor).toBe(5)
        expect(log.error).toHaveBeenCalledTimes(1)
      } finally {
        await db().deleteFrom('ledger_entry').where('transaction_id', '=', planted.id).execute()
        await db().deleteFrom('ledger_transaction').where('id', '=', planted.id).execute()
      }
    })
  })
}
