import { expect } from 'vitest'
import { balanceOf, contractFor, fund, type paymentsTestApi, type usePayments } from './payments.ts'

// The helpers of the dispute tests (server/modules/complaints/disputes.test.ts and
// complaint-access.test.ts): balances, an installment's state, ledger rows, filing a complaint,
// support's decision, and a complaint holding a funded installment.

export function disputeHelpers(s: ReturnType<typeof usePayments>) {
  type U = Awaited<ReturnType<ReturnType<typeof paymentsTestApi>['user']>>

  const balance = (u: U) => balanceOf(s.t.call, u)
  const statusOf = async (id: number) =>
    await s.database.db
      .selectFrom('installment')
      .select(['status', 'refunded_minor'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  const ledgerRows = async () =>
    Number(
      (
        await s.database.db
          .selectFrom('ledger_entry')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const file = (u: U, subject: string, title = 'The drawings are not what we agreed') =>
    s.t.call('POST', 'complaints', {
      token: u.token,
      body: {
        subject,
        title,
        description: 'The client refuses to approve finished drawings and will not answer.',
      },
    })
  const decide = (id: number, body: Record<string, unknown>, token = s.admin.token) =>
    s.t.call('POST', `Admin/complaints/${id}/decision`, { token, body })
  async function fundedComplaint(amounts = [100000, 50000]) {
    const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, amounts)
    await fund(s.t.call, s.client, c.projectId, [c.installments[0].id])
    const filed = await file(s.freelancer, `installment:${c.installments[0].id}`)
    expect(filed.status, filed.text).toBe(200)
    return { ...c, i: c.installments[0], id: filed.json.id as number }
  }
  return { balance, statusOf, ledgerRows, file, decide, fundedComplaint }
}
