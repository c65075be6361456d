import { Role } from '#server/modules/identity/permissions.ts'
import { createPayouts } from '#server/modules/payments/payouts.ts'
import type { TestDialect } from '../../integration/databases.ts'
import { answerLost, contractFor, fund, type paymentsTestApi, type usePayments } from './payments.ts'

// The helpers of the admin's money tests (server/modules/admin-money/admin-money.test.ts and
// admin-reconcile.test.ts): the API, a new SuperAdmin, row counts, the ledger's checks run now, money a
// freelancer earned, and a payout stuck after the gateway paid it.
type T = ReturnType<typeof paymentsTestApi>
type U = { id: number; token: string }
const GOOD_IBAN = 'DE89 3704 0044 0532 0130 00'

export function adminMoneyHelpers(s: ReturnType<typeof usePayments>, dialect: TestDialect) {
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
  return { t, db, admin, count, checks, earn, stuckPayout }
}
