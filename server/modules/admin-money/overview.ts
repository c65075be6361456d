import type { DB } from '#server/db/database.ts'
import type { Refunds } from '../payments/refunds.ts'
import { displayName } from '../identity/display-name.ts'
import type { PaymentsOverview } from './contract.ts'

// The admin's payments page: payouts waiting at the gateway, refund requests open or disputed
// (with the complaint about their installment, if any), and refunds stuck in flight.

const iso = (v: string) => new Date(v).toISOString()

/** Payouts still requested, with their freelancer's name; `since` marks the stuck ones. */
async function pendingPayouts(db: DB, since: string) {
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
  return pending.map((p) => ({
    id: p.id,
    freelancer: { id: p.user_id, name: displayName(p) },
    amountMinor: Number(p.amount_minor),
    currency: p.currency,
    destination: p.destination_masked,
    createdAt: iso(p.created_at),
    stuck: iso(p.updated_at) < since,
  }))
}

const openRefundRows = (db: DB) =>
  db
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

/** Refund requests open or disputed, each with its parties and the complaint about its installment. */
async function openRefunds(db: DB, now: Date) {
  const open = await openRefundRows(db)
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
  return open.map((r) => ({
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
  }))
}

/** The page's lists; the ledger's health is added by the service. */
export async function moneyInFlight(
  db: DB,
  refunds: Pick<Refunds, 'stuck'>,
  since: string,
  now: Date,
): Promise<Omit<PaymentsOverview, 'health' | 'checkedAt'>> {
  const payouts = await pendingPayouts(db, since)
  const open = await openRefunds(db, now)
  return {
    payouts,
    refunds: open,
    stuckRefunds: (await refunds.stuck(since)).map((r) => ({
      id: r.id,
      amountMinor: Number(r.amount_minor) + Number(r.fee_minor),
      currency: r.currency,
      updatedAt: iso(r.updated_at),
    })),
  }
}
