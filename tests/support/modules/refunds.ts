import { balanceOf, contractFor, fund, rowCount, type paymentsTestApi, type usePayments } from './payments.ts'

// The helpers of the refund tests (server/modules/payments/refunds*.test.ts): asking for a refund,
// support's decision of its dispute, balances, an installment's state, row counts, a funded contract.

export function refundHelpers(s: ReturnType<typeof usePayments>) {
  type U = Awaited<ReturnType<ReturnType<typeof paymentsTestApi>['user']>>
  /** Support decides the dispute on its ticket (decision 313). */
  const decide = (complaintId: number, body: Record<string, unknown>) =>
    s.t.call('POST', `Admin/complaints/${complaintId}/decision`, { token: s.admin.token, body })

  const balance = (u: U) => balanceOf(s.t.call, u)
  const statusOf = async (id: number) =>
    (
      await s.database.db
        .selectFrom('installment')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status
  const count = (table: 'ledger_entry' | 'refund_request' | 'outbox') => rowCount(s.database, table)
  const ask = (
    u: U,
    projectId: number,
    installmentId: number | string,
    amount: number | string,
    reason: unknown = 'The first drawings were not usable',
  ) =>
    s.t.call('POST', `RefundRequest/${projectId}/${installmentId}/${amount}`, {
      token: u.token,
      body: { reason },
    })
  /** A contract with its first installment funded (and submitted when asked). */
  async function funded(amounts = [100000, 50000], submit = false) {
    const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, amounts)
    await fund(s.t.call, s.client, c.projectId, [c.installments[0].id])
    if (submit)
      await s.t.call('POST', `projects/installments/${c.installments[0].id}/submit`, {
        token: s.freelancer.token,
        body: { note: 'Calculations attached' },
      })
    return { ...c, i: c.installments[0] }
  }
  return { decide, balance, statusOf, count, ask, funded }
}
