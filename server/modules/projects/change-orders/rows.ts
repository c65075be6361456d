import type { Selectable } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Database } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { displayName } from '#server/modules/identity/display-name.ts'
import { readContractOfProject, readProject, usersByIds } from '../reads.ts'
import type { Trx } from '../transition.ts'
import type { ChangeOrderOut, ChangeOrderState, EffectKind } from './contract.ts'

// A contract's change orders as its two parties read them, and the contract's value and deadline
// as the accepted ones left them.

export type ChangeOrderRow = Selectable<Database['change_order']>
type EffectRow = Selectable<Database['change_order_effect']>

/** The project's contract when the caller is one of its parties (404 for anyone else, as for a missing one). */
export async function partyContract(db: DB | Trx, caller: Caller, projectId: number) {
  const contract = await readContractOfProject(db as DB, projectId)
  if (!contract || (contract.client_id !== caller.userId && contract.freelancer_id !== caller.userId))
    throw notFound('Contract')
  return contract
}

const effectsOf = (db: DB | Trx, ids: number[]) =>
  ids.length
    ? db
        .selectFrom('change_order_effect')
        .selectAll()
        .where('change_order_id', 'in', ids)
        .orderBy('change_order_id')
        .orderBy('position')
        .execute()
    : Promise.resolve([] as EffectRow[])

/** What an effect does to the contract's value: a reduction's row keeps by how much; a change's, the new amount. */
function deltaOf(e: EffectRow, now: Map<number, number>) {
  if (e.kind === 'add') return e.amount_minor ?? 0
  if (e.kind === 'deadline' || e.installment_id === null) return 0
  const before = e.old_amount_minor ?? now.get(e.installment_id) ?? 0
  if (e.kind === 'reduce') return -(e.amount_minor ?? 0)
  if (e.kind === 'remove') return -before
  return e.amount_minor === null ? 0 : e.amount_minor - before
}

/** The change orders (newest first), shown to `caller`. */
export async function presentAll(
  db: DB | Trx,
  caller: Caller,
  rows: ChangeOrderRow[],
): Promise<ChangeOrderOut[]> {
  const [effects, people, installments] = await Promise.all([
    effectsOf(
      db,
      rows.map((r) => r.id),
    ),
    // An empty list is no query: PostgreSQL refuses `in ()`.
    rows.length ? usersByIds(db as DB, [...new Set(rows.map((r) => r.proposer_id))]) : Promise.resolve([]),
    rows.length
      ? db
          .selectFrom('installment')
          .select(['id', 'amount_minor'])
          .where('contract_id', '=', rows[0]!.contract_id)
          .execute()
      : Promise.resolve([]),
  ])
  const amounts = new Map(installments.map((i) => [i.id, i.amount_minor]))
  return rows.map((r) => {
    const mine = effects.filter((e) => e.change_order_id === r.id)
    const who = people.find((p) => p.id === r.proposer_id)
    const pending = r.status === 'proposed'
    return {
      id: r.id,
      projectId: r.project_id,
      contractId: r.contract_id,
      number: r.number,
      proposerId: r.proposer_id,
      proposerName: who ? displayName(who) : '',
      description: r.description,
      reason: r.reason,
      status: r.status as ChangeOrderState,
      currency: r.currency,
      deltaMinor:
        r.value_after_minor !== null && r.value_before_minor !== null
          ? r.value_after_minor - r.value_before_minor
          : mine.reduce((s, e) => s + deltaOf(e, amounts), 0),
      valueBeforeMinor: r.value_before_minor,
      valueAfterMinor: r.value_after_minor,
      decidedBy: r.decided_by,
      decidedAt: r.decided_at,
      rejectionReason: r.rejection_reason,
      effects: mine.map((e) => ({
        kind: e.kind as EffectKind,
        installmentId: e.installment_id,
        title: e.title,
        amountMinor: e.amount_minor,
        dueDate: e.due_date,
        oldTitle: e.old_title,
        oldAmountMinor: e.old_amount_minor,
        oldDueDate: e.old_due_date,
        refundedMinor: e.refunded_minor,
      })),
      canDecide: pending && r.proposer_id !== caller.userId,
      canWithdraw: pending && r.proposer_id === caller.userId,
      createdAt: r.created_at,
    }
  })
}

/** The deadline set by the last accepted change order that moved it (undefined when none did). */
export const movedDeadline = (db: DB | Trx, contractId: number) =>
  db
    .selectFrom('change_order_effect as e')
    .innerJoin('change_order as o', 'o.id', 'e.change_order_id')
    .select('e.due_date')
    .where('o.contract_id', '=', contractId)
    .where('o.status', '=', 'accepted')
    .where('e.kind', '=', 'deadline')
    .orderBy('o.number', 'desc')
    .executeTakeFirst()

export const changeOrderRows = (db: DB | Trx, contractId: number) =>
  db
    .selectFrom('change_order')
    .selectAll()
    .where('contract_id', '=', contractId)
    .orderBy('number', 'desc')
    .execute()

/** The list with the contract's original value, the approved changes, its value and deadline now. */
export async function listChangeOrders(db: DB, caller: Caller, projectId: number) {
  const contract = await partyContract(db, caller, projectId)
  const [rows, project, moved, installments] = await Promise.all([
    changeOrderRows(db, contract.id),
    readProject(db, projectId),
    movedDeadline(db, contract.id),
    db
      .selectFrom('installment')
      .select(['id', 'position', 'title', 'amount_minor', 'due_date', 'status'])
      .where('contract_id', '=', contract.id)
      .orderBy('position')
      .execute(),
  ])
  const approved = rows
    .filter((r) => r.status === 'accepted')
    .reduce((s, r) => s + (r.value_after_minor ?? 0) - (r.value_before_minor ?? 0), 0)
  return {
    data: await presentAll(db, caller, rows),
    currency: contract.currency,
    originalMinor: contract.amount_minor - approved,
    approvedChangesMinor: approved,
    currentMinor: contract.amount_minor,
    deadline: moved?.due_date ?? project?.deadline ?? null,
    contractStatus: contract.status,
    billing: contract.billing === 'hourly' ? ('hourly' as const) : ('fixed' as const),
    projectTitle: project?.title ?? '',
    role: contract.client_id === caller.userId ? ('client' as const) : ('freelancer' as const),
    installments: installments.map((i) => ({
      id: i.id,
      position: i.position,
      title: i.title,
      amountMinor: i.amount_minor,
      dueDate: i.due_date,
      status: i.status,
    })),
  }
}
