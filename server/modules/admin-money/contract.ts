import { z } from 'zod'
import { endpoint, shownName } from '#server/api/contract.ts'
import { dashboardPeriods } from './periods.ts'

// The admin's dashboard and payments screen (issue 18 item 3, decisions 251–253): figures over
// time, what waits on money (payouts, refund requests, disputes), the ledger's health and
// reconciliation. SuperAdmin only (decision 220).
const tag = 'Admin'

export { dashboardPeriods }
export const dashboardQuery = z.object({
  weeks: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .refine(
      (v) => (dashboardPeriods as readonly number[]).includes(v),
      `must be one of ${dashboardPeriods.join(', ')}`,
    )
    .default(12),
})

const counted = z.object({ key: z.string(), count: z.number() })
/** A total now, split by a key (role, status), and how many were created in each week of the period. */
const population = z.object({ total: z.number(), by: z.array(counted), newPerWeek: z.array(z.number()) })
export const dashboard = z.object({
  weeks: z.number(),
  /** The Monday (UTC, YYYY-MM-DD) each week of the period starts on, oldest first. */
  weekStarts: z.array(z.string()),
  users: population,
  projects: population,
  contracts: population,
  /** Per currency: money held now, held at the end of each week, and released in each week (minor units). */
  money: z.array(
    z.object({
      currency: z.string(),
      heldMinor: z.number(),
      heldPerWeek: z.array(z.number()),
      releasedPerWeek: z.array(z.number()),
    }),
  ),
})
export type Dashboard = z.output<typeof dashboard>

const person = z.object({ id: z.number(), name: shownName })
export const healthChecks = [
  'currenciesSumToZero',
  'transactionsBalance',
  'noNegativeBalances',
  'runningSumsMatch',
  'heldMatchesInstallments',
] as const
export type HealthCheck = (typeof healthChecks)[number]
/** One thing a check found wrong: what (a currency, a transaction, an account or a client's held money), and the amounts. */
export const healthProblem = z.object({
  subject: z.string(),
  currency: z.string(),
  amountMinor: z.number(),
  expectedMinor: z.number(),
})
export type HealthProblem = z.output<typeof healthProblem>

export const paymentsOverview = z.object({
  /** Payouts asked for and not yet paid or failed; `stuck` when older than the reconciliation's threshold. */
  payouts: z.array(
    z.object({
      id: z.number(),
      freelancer: person,
      amountMinor: z.number(),
      currency: z.string(),
      destination: z.string(),
      createdAt: z.string(),
      stuck: z.boolean(),
    }),
  ),
  /** Refund requests open or disputed, with the complaint about the installment when there is one. */
  refunds: z.array(
    z.object({
      id: z.number(),
      status: z.enum(['open', 'disputed']),
      projectId: z.number(),
      project: z.string(),
      installment: z.string(),
      client: person,
      freelancer: person,
      amountMinor: z.number(),
      currency: z.string(),
      reason: z.string(),
      respondBy: z.string(),
      overdue: z.boolean(),
      complaintId: z.number().nullable(),
      createdAt: z.string(),
    }),
  ),
  /** Refunds accepted but not confirmed by the gateway, older than the threshold. */
  stuckRefunds: z.array(
    z.object({ id: z.number(), amountMinor: z.number(), currency: z.string(), updatedAt: z.string() }),
  ),
  /** The ledger's health checks as of `checkedAt`: they run every 15 minutes and on demand, never per page view (decision 264). */
  health: z.array(
    z.object({ check: z.enum(healthChecks), ok: z.boolean(), problems: z.array(healthProblem) }),
  ),
  checkedAt: z.string(),
})
export type PaymentsOverview = z.output<typeof paymentsOverview>

// Error texts are keys of the adminMoney namespace (the page shows them in the reader's language).
export const reconcileBody = z.object({
  reason: z.string({ error: 'errors.reason' }).trim().min(1, 'errors.reason').max(500, 'errors.reasonLong'),
})
export const reconcileResult = z.object({
  payoutsSettled: z.number(),
  refundsSettled: z.number(),
  left: z.number(),
})

export const adminMoneyContract = {
  dashboard: endpoint({
    method: 'GET',
    path: 'Admin/dashboard',
    summary: 'SuperAdmin: users, projects, contracts and money held and released per week over the period',
    tag,
    access: 'admin',
    query: dashboardQuery,
    response: dashboard,
  }),
  payments: endpoint({
    method: 'GET',
    path: 'Admin/payments',
    summary:
      "SuperAdmin: pending payouts, open refund requests and disputes, money stuck in flight and the ledger's health checks",
    tag,
    access: 'admin',
    response: paymentsOverview,
  }),
  reconcile: endpoint({
    method: 'POST',
    path: 'Admin/payments/reconcile',
    summary:
      'SuperAdmin: ask the gateways now about payouts and refunds stuck in flight and settle them once; audited with the reason',
    tag,
    access: 'admin',
    body: reconcileBody,
    response: reconcileResult,
  }),
  checkHealth: endpoint({
    method: 'POST',
    path: 'Admin/payments/health-check',
    summary:
      "SuperAdmin: run the ledger's health checks now (they also run every 15 minutes); answers the fresh result",
    tag,
    access: 'admin',
    response: paymentsOverview.pick({ health: true, checkedAt: true }),
  }),
}
