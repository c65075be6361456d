import type { DB } from '../../db/database.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import type { Caller } from '../../api/handler.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import type { Payouts } from '../payments/payouts.ts'
import type { Refunds } from '../payments/refunds.ts'
import type { PaymentsOverview } from './contract.ts'
import { createFigures } from './figures.ts'
import type { LedgerHealthMonitor } from './health-monitor.ts'
import { displayName } from '../identity/display-name.ts'

// The admin's money screens (issue 18 item 3, decisions 251–253). Reading is open to every
// SuperAdmin (the API's guard, decision 220); reconciling is an admin action: the action itself
// and every payout or refund it settles are audited, each in the transaction of its change.

/** A payout or refund still in flight after this long is stuck: its gateway answer was lost (decision 250). */
export const STUCK_MINUTES = 10

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
  const stuckSince = (now: Date) => new Date(now.getTime() - STUCK_MINUTES * 60_000).toISOString()

  async function overview(now = new Date()): Promise<PaymentsOverview> {
    const since = stuckSince(now)
    const pending = await db
      .selectFrom('payout as p')
      .innerJoin('app_user as u', 'u.id', 'p.user_id')
      .select([
        'p.id',
        'p.user_id',
        'p.amount_minor',
        'p.currency',
        'p.destination_masked',
        'p.created_at',
        'p.updated_at',
        'u.first_name',
        'u.last_name',
        'u.company_name',
        'u.status',
      ])
      .where('p.status', '=', 'requested')
      .orderBy('p.id')
      .limit(200)
      .execute()
    const open = await db
      .selectFrom('refund_request as r')
      .innerJoin('project as p', 'p.id', 'r.project_id')
      .innerJoin('installment as i', 'i.id', 'r.installment_id')
      .innerJoin('app_user as c', 'c.id', 'r.client_id')
      .innerJoin('app_user as f', 'f.id', 'r.freelancer_id')
      .select([
        'r.id',
        'r.status',
        'r.project_id',
        'r.installment_id',
        'r.amount_minor',
        'r.currency',
        'r.reason',
        'r.respond_by',
        'r.created_at',
        'p.title as project',
        'i.title as installment',
        'r.client_id',
        'c.first_name as cf',
        'c.last_name as cl',
        'c.company_name as cc',
        'c.status as cs',
        'r.freelancer_id',
        'f.first_name as ff',
        'f.last_name as fl',
        'f.company_name as fc',
        'f.status as fs',
      ])
      .where('r.status', 'in', ['open', 'disputed'])
      .orderBy('r.id')
      .limit(200)
      .execute()
    // The complaint about an installment, when someone filed one (the newest, for the link).
    const complaints = open.length
      ? await db
          .selectFrom('complaint')
          .select(['id', 'subject_id'])
          .where('subject_kind', '=', 'installment')
          .where(
            'subject_id',
            'in',
            open.map((r) => r.installment_id),
          )
          .orderBy('id')
          .execute()
      : []
    const complaintOf = new Map(complaints.map((c) => [c.subject_id, c.id]))
    const iso = (v: string) => new Date(v).toISOString()
    return {
      payouts: pending.map((p) => ({
        id: p.id,
        freelancer: { id: p.user_id, name: displayName(p) },
        amountMinor: Number(p.amount_minor),
        currency: p.currency,
        destination: p.destination_masked,
        createdAt: iso(p.created_at),
        stuck: iso(p.updated_at) < since,
      })),
      refunds: open.map((r) => ({
        id: r.id,
        status: r.status as 'open' | 'disputed',
        projectId: r.project_id,
        project: r.project,
        installment: r.installment,
        client: {
          id: r.client_id,
          name: displayName({ first_name: r.cf, last_name: r.cl, company_name: r.cc, status: r.cs }),
        },
        freelancer: {
          id: r.freelancer_id,
          name: displayName({ first_name: r.ff, last_name: r.fl, company_name: r.fc, status: r.fs }),
        },
        amountMinor: Number(r.amount_minor),
        currency: r.currency,
        reason: r.reason,
        respondBy: iso(r.respond_by),
        overdue: r.status === 'open' && iso(r.respond_by) < now.toISOString(),
        complaintId: complaintOf.get(r.installment_id) ?? null,
        createdAt: iso(r.created_at),
      })),
      stuckRefunds: (await refunds.stuck(since)).map((r) => ({
        id: r.id,
        amountMinor: Number(r.amount_minor) + Number(r.fee_minor),
        currency: r.currency,
        updatedAt: iso(r.updated_at),
      })),
      ...(await healthOf(health.latest())),
    }
  }

  /** "Run the checks now": the whole ledger read afresh (the page otherwise shows the last run). */
  const checkHealth = () => healthOf(health.runNow())
  const healthOf = async (run: ReturnType<LedgerHealthMonitor['latest']>) => {
    const { checks, checkedAt } = await run
    return { health: checks, checkedAt }
  }

  /**
   * "Reconcile now": every payout and refund stuck in flight is asked about at its gateway and
   * settled once (decision 250); each one settled is audited in its settling transaction, and the
   * action with the admin's reason in its own. One the gateway cannot answer stays for the next try.
   */
  async function reconcile(caller: Caller, reason: string, now = new Date()) {
    const since = stuckSince(now)
    const audit =
      (objectType: 'payout' | 'refund_request', objectId: number, toState: string) =>
      (trx: Parameters<typeof recordAdminAction>[0]) =>
        recordAdminAction(trx, {
          actorId: caller.userId,
          action: 'reconcile',
          objectType,
          objectId,
          fromState: objectType === 'payout' ? 'requested' : 'pending',
          toState,
          reason,
        })
    let payoutsSettled = 0
    let refundsSettled = 0
    let left = 0
    for (const p of await payouts.stuck(since)) {
      const settled = await payouts
        .reconcile(p, (trx, status) => audit('payout', p.id, status)(trx))
        .catch(() => null)
      if (settled) payoutsSettled++
      else left++
    }
    for (const r of await refunds.stuck(since)) {
      const settled = await refunds
        .resend(r.id, (trx, status) => audit('refund_request', r.id, status)(trx))
        .catch(() => false)
      if (settled) refundsSettled++
      else left++
    }
    await recordAdminAction(db, {
      actorId: caller.userId,
      action: 'reconcile',
      objectType: 'payments',
      objectId: null,
      reason: `${reason} (payouts settled: ${payoutsSettled}, refunds settled: ${refundsSettled}, left in flight: ${left})`,
    })
    return { payoutsSettled, refundsSettled, left }
  }

  return { dashboard: figures.dashboard, overview, reconcile, checkHealth }
}
export type AdminMoney = ReturnType<typeof createAdminMoney>
