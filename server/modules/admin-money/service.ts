import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import type { Payouts } from '../payments/payouts.ts'
import type { Refunds } from '../payments/refunds.ts'
import type { PaymentsOverview } from './contract.ts'
import { createFigures } from './figures.ts'
import type { LedgerHealthMonitor } from './health-monitor.ts'
import { moneyInFlight } from './overview.ts'
import { reconcileStuck } from './reconcile.ts'

// The admin's money screens (issue 18 item 3, decisions 251–253). Reading is open to every
// SuperAdmin (the API's guard, decision 220); reconciling is an admin action: the action itself
// and every payout or refund it settles are audited, each in the transaction of its change.

/** A payout or refund still in flight after this long is stuck: its gateway answer was lost (decision 250). */
export const STUCK_MINUTES = 10

const stuckSince = (now: Date) => new Date(now.getTime() - STUCK_MINUTES * 60_000).toISOString()

const healthOf = async (run: ReturnType<LedgerHealthMonitor['latest']>) => {
  const { checks, checkedAt } = await run
  return { health: checks, checkedAt }
}

export function createAdminMoney({
  db,
  dialect,
  payouts,
  refunds,
  health,
}: {
  db: DB
  dialect: Dialect
  payouts: Payouts
  refunds: Pick<Refunds, 'stuck' | 'resend'>
  health: LedgerHealthMonitor
}) {
  const figures = createFigures(db, dialect)
  return {
    dashboard: figures.dashboard,
    async overview(now = new Date()): Promise<PaymentsOverview> {
      return {
        ...(await moneyInFlight(db, refunds, stuckSince(now), now)),
        ...(await healthOf(health.latest())),
      }
    },
    reconcile: (caller: Caller, reason: string, now = new Date()) =>
      reconcileStuck({ db, payouts, refunds }, caller, reason, stuckSince(now)),
    /** "Run the checks now": the whole ledger read afresh (the page otherwise shows the last run). */
    checkHealth: () => healthOf(health.runNow()),
  }
}
export type AdminMoney = ReturnType<typeof createAdminMoney>
