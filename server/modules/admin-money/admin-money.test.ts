import { describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { usePayments } from '../../../tests/support/modules/payments.ts'
import { adminMoneyHelpers } from '../../../tests/support/modules/admin-money.ts'
import { weekStartsEnding } from './figures.ts'

// The admin's money API (decisions 251–253) on both databases: SuperAdmin only (nothing changes for
// anyone else), the dashboard's figures match what was seeded, and the payments screen lists pending
// payouts and refund requests (with the complaint about the installment) with the ledger's checks
// green. Reconciling and the checks turning red are in admin-reconcile.test.ts.

for (const dialect of dialects) {
  describe(`admin money on ${dialect}`, () => {
    const s = usePayments(dialect)
    const { t, db, admin, count, earn, stuckPayout } = adminMoneyHelpers(s, dialect)

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
  })
}
