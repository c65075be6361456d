import type { Selectable } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { InstallmentState } from '../machines.ts'
import { recordActivity, recordCreated, transitionInstallment, type Trx } from '../transition.ts'
import { nowIso, type ContractRow } from '../shared.ts'
import type { ChangeOrderMoney } from '#server/modules/payments/change-order-money.ts'
import type { Plan, Step } from './plan.ts'
import { movedDeadline, type ChangeOrderRow } from './rows.ts'

// An accepted change order amends the contract, inside the acceptance's transaction: installments
// are added or changed, the contract's value becomes the planned one, and the part of a reduced
// installment's held money that is no longer owed goes back to the client through the refunds'
// path. A removed installment gives back all that is held for it, then leaves the plan at zero in
// state `removed` (decision 326). Each effect row keeps what it replaced, so the contract's history
// is never overwritten.

type EffectRow = Selectable<Database['change_order_effect']>
type Amendment = {
  contract: ContractRow
  order: ChangeOrderRow
  rows: EffectRow[]
  plan: Plan
  actorId: number
}

/** The deadline the contract had before: the last accepted change that moved it, else the project's. */
async function deadlineNow(trx: Trx, contract: ContractRow) {
  const moved = await movedDeadline(trx, contract.id)
  if (moved) return moved.due_date
  const project = await trx
    .selectFrom('project')
    .select('deadline')
    .where('id', '=', contract.project_id)
    .executeTakeFirstOrThrow()
  return project.deadline
}

async function addInstallment(trx: Trx, a: Amendment, s: Step & { kind: 'add' }) {
  const last = await trx
    .selectFrom('installment')
    .select((eb) => eb.fn.max('position').as('n'))
    .where('contract_id', '=', a.contract.id)
    .executeTakeFirst()
  const now = nowIso()
  const row = await trx
    .insertInto('installment')
    .values({
      contract_id: a.contract.id,
      position: Number(last?.n ?? 0) + 1,
      title: s.title,
      amount_minor: s.amountMinor,
      currency: a.contract.currency,
      due_date: s.dueDate,
      status: 'pending',
      submission_note: null,
      feedback: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const note = `#${a.order.number}`
  await recordCreated(trx, 'installment', row.id, 'pending', a.contract.project_id, a.actorId, [], note)
  return row.id
}

/** Changes or reduces an installment; answers the refund request that gives held money back, if any. */
async function changeInstallment(
  money: ChangeOrderMoney,
  trx: Trx,
  a: Amendment,
  s: Step & { kind: 'change' | 'reduce' | 'remove' },
) {
  const { i } = s
  let requestId: number | null = null
  if (s.amountMinor !== i.amount_minor && i.status === 'pending') await money.abandonCheckouts(trx, i.id)
  if (s.giveBackMinor > 0)
    requestId = await money.giveBack(trx, {
      installmentId: i.id,
      contractId: a.contract.id,
      projectId: a.contract.project_id,
      clientId: a.contract.client_id,
      freelancerId: a.contract.freelancer_id,
      priceMinor: s.giveBackMinor,
      reason: `Change order ${a.order.number}: ${a.order.description}`.slice(0, 1000),
    })
  await trx
    .updateTable('installment')
    .set({ title: s.title, amount_minor: s.amountMinor, due_date: s.dueDate, updated_at: nowIso() })
    .where('id', '=', i.id)
    .execute()
  if (s.kind === 'remove') await removeInstallment(trx, a, i.id)
  else
    await recordActivity(
      trx,
      a.contract.project_id,
      a.actorId,
      'installment',
      i.id,
      'change',
      i.status,
      `#${a.order.number}`,
    )
  return requestId
}

/** Takes the installment off the contract: pending by now (its held money, if any, went back). */
async function removeInstallment(trx: Trx, a: Amendment, installmentId: number) {
  const now = await trx
    .selectFrom('installment')
    .select('status')
    .where('id', '=', installmentId)
    .executeTakeFirstOrThrow()
  await transitionInstallment(trx, {
    id: installmentId,
    current: now.status as InstallmentState,
    action: 'remove',
    // The system applies what both parties agreed; the feed names the party who accepted.
    actor: 'system',
    actorId: a.actorId,
    projectId: a.contract.project_id,
    note: `#${a.order.number}`,
  })
}

/** Applies the plan through the payments' money side; answers the refund requests to send to the gateway after commit. */
export async function amend(money: ChangeOrderMoney, trx: Trx, a: Amendment) {
  const refunds: number[] = []
  for (const [n, s] of a.plan.steps.entries()) {
    const row = a.rows[n]!
    if (s.kind === 'add') {
      const id = await addInstallment(trx, a, s)
      await trx
        .updateTable('change_order_effect')
        .set({ installment_id: id })
        .where('id', '=', row.id)
        .execute()
    } else if (s.kind === 'deadline') {
      const old = await deadlineNow(trx, a.contract)
      await trx
        .updateTable('change_order_effect')
        .set({ old_due_date: old })
        .where('id', '=', row.id)
        .execute()
    } else {
      const requestId = await changeInstallment(money, trx, a, s)
      if (requestId) refunds.push(requestId)
      await trx
        .updateTable('change_order_effect')
        .set({
          old_title: s.i.title,
          old_amount_minor: s.i.amount_minor,
          old_due_date: s.i.due_date,
          refunded_minor: s.giveBackMinor || null,
        })
        .where('id', '=', row.id)
        .execute()
    }
  }
  await trx
    .updateTable('contract')
    .set({ amount_minor: a.plan.valueAfterMinor, updated_at: nowIso() })
    .where('id', '=', a.contract.id)
    .execute()
  return refunds
}
