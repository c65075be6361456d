import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError, forbidden, notFound } from '#server/api/errors.ts'
import type { ChangeOrderMoney } from '#server/modules/payments/change-order-money.ts'
import { projectTitle } from '../funding.ts'
import { conflict, lockRow, type Trx } from '../transition.ts'
import { nowIso, type ContractRow, type InstallmentRow } from '../shared.ts'
import type { ChangeOrderIn, EffectIn } from './contract.ts'
import { planOf } from './plan.ts'
import { amend } from './amend.ts'
import { announceStep } from './notices.ts'
import { partyContract, presentAll, type ChangeOrderRow } from './rows.ts'

// A change order's life (decision 319): either party of an active contract proposes it; the other
// party accepts it (the contract is amended in the same transaction, amend.ts) or rejects it with a
// reason; its proposer may withdraw it while it is pending. It is decided once: any later decision
// answers 409 with its state. A pending change order holds nothing else of the contract back.

export type ChangeOrderDeps = {
  db: DB
  dialect: Dialect
  money: ChangeOrderMoney
  publicUrl: string
}

const installmentsOf = (trx: Trx, contractId: number) =>
  trx
    .selectFrom('installment')
    .selectAll()
    .where('contract_id', '=', contractId)
    .orderBy('position')
    .execute()

/**
 * The contract locked for a change, refused (409) unless it is active and has installments to
 * amend: an hourly contract is paid by its approved weeks, so it takes no change orders (decision 323).
 */
async function activeContract({ dialect }: ChangeOrderDeps, trx: Trx, id: number) {
  const contract = (await lockRow(trx, dialect, 'contract', id))!
  if (contract.status !== 'active')
    throw conflict(`The contract is ${contract.status}; it takes no change orders`, contract.status)
  if (contract.billing === 'hourly') throw hourlyContract()
  return contract
}

const hourlyContract = () =>
  new ApiError(
    409,
    'Conflict',
    'The contract is paid by the hour; it takes no change orders',
    { billing: ['hourly'] },
    'hourly_contract',
  )

const show = async (db: DB, caller: Caller, id: number) => {
  const row = await db.selectFrom('change_order').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  return (await presentAll(db, caller, [row]))[0]!
}

export async function propose(
  deps: ChangeOrderDeps,
  caller: Caller,
  projectId: number,
  input: ChangeOrderIn,
) {
  const { db, money, publicUrl } = deps
  const found = await partyContract(db, caller, projectId)
  const id = await db.transaction().execute(async (trx) => {
    const contract = await activeContract(deps, trx, found.id)
    // Checked now, so nothing is proposed that could never be accepted; checked again when accepted.
    await planOf(trx, money.of, contract, await installmentsOf(trx, contract.id), input.effects)
    const last = await trx
      .selectFrom('change_order')
      .select((eb) => eb.fn.max('number').as('n'))
      .where('contract_id', '=', contract.id)
      .executeTakeFirst()
    const now = nowIso()
    const order = await trx
      .insertInto('change_order')
      .values({
        contract_id: contract.id,
        project_id: projectId,
        number: Number(last?.n ?? 0) + 1,
        proposer_id: caller.userId,
        description: input.description,
        reason: input.reason,
        status: 'proposed',
        currency: contract.currency,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('change_order_effect')
      .values(input.effects.map((e, n) => effectRow(order.id, n + 1, e)))
      .execute()
    const title = await projectTitle(trx, projectId)
    await announceStep(trx, publicUrl, 'proposed', { contract, order, actorId: caller.userId, title })
    return order.id
  })
  return show(db, caller, id)
}

const effectRow = (changeOrderId: number, position: number, e: EffectIn) => ({
  change_order_id: changeOrderId,
  position,
  kind: e.kind,
  installment_id: 'installmentId' in e ? e.installmentId : null,
  title: 'title' in e ? (e.title ?? null) : null,
  amount_minor: 'amountMinor' in e ? (e.amountMinor ?? null) : null,
  due_date: 'dueDate' in e ? (e.dueDate ?? null) : null,
})

/** The effects as they were proposed, to be planned again on the contract as it is now. */
const asInput = (
  rows: {
    kind: string
    installment_id: number | null
    title: string | null
    amount_minor: number | null
    due_date: string | null
  }[],
) =>
  rows.map((r): EffectIn => {
    const some = <T>(v: T | null) => v ?? undefined
    if (r.kind === 'add')
      return { kind: 'add', title: r.title!, amountMinor: r.amount_minor!, dueDate: some(r.due_date) }
    if (r.kind === 'reduce')
      return { kind: 'reduce', installmentId: r.installment_id!, amountMinor: r.amount_minor! }
    if (r.kind === 'remove') return { kind: 'remove', installmentId: r.installment_id! }
    if (r.kind === 'deadline') return { kind: 'deadline', dueDate: r.due_date! }
    return {
      kind: 'change',
      installmentId: r.installment_id!,
      title: some(r.title),
      amountMinor: some(r.amount_minor),
      dueDate: some(r.due_date),
    }
  })

type Decision = 'accept' | 'reject' | 'withdraw'

/** The change order of this contract, locked, still proposed (409 with its state otherwise); the right party decides. */
async function pendingOrder(
  deps: ChangeOrderDeps,
  trx: Trx,
  contract: ContractRow,
  id: number,
  caller: Caller,
  decision: Decision,
) {
  let q = trx
    .selectFrom('change_order')
    .selectAll()
    .where('id', '=', id)
    .where('contract_id', '=', contract.id)
  if (deps.dialect === 'postgres') q = q.forUpdate()
  const order = await q.executeTakeFirst()
  if (!order) throw notFound('Change order')
  const mine = order.proposer_id === caller.userId
  if (decision === 'withdraw' ? !mine : mine) throw forbidden()
  if (order.status !== 'proposed')
    throw conflict(`Change order ${order.number} is ${order.status}; it was already decided`, order.status)
  return order
}

/** The other party accepts: the contract is amended in this transaction; refunds go to the gateway after commit. */
export async function accept(deps: ChangeOrderDeps, caller: Caller, projectId: number, id: number) {
  const { db, money, publicUrl } = deps
  const found = await partyContract(db, caller, projectId)
  const refunds = await db.transaction().execute(async (trx) => {
    const contract = await activeContract(deps, trx, found.id)
    const order = await pendingOrder(deps, trx, contract, id, caller, 'accept')
    const rows = await trx
      .selectFrom('change_order_effect')
      .selectAll()
      .where('change_order_id', '=', order.id)
      .orderBy('position')
      .execute()
    const installments: InstallmentRow[] = []
    for (const i of await installmentsOf(trx, contract.id))
      installments.push((await lockRow(trx, deps.dialect, 'installment', i.id))!)
    const plan = await planOf(trx, money.of, contract, installments, asInput(rows))
    const sent = await amend(money, trx, { contract, order, rows, plan, actorId: caller.userId })
    const decided = await decide(trx, order, caller, 'accepted', {
      value_before_minor: contract.amount_minor,
      value_after_minor: plan.valueAfterMinor,
    })
    const title = await projectTitle(trx, projectId)
    await announceStep(trx, publicUrl, 'accepted', {
      contract,
      order: decided,
      actorId: caller.userId,
      title,
    })
    return sent
  })
  for (const requestId of refunds) await money.sendBack(requestId)
  return show(db, caller, id)
}

/** Writes the decision once (compare-and-set on `proposed`). */
async function decide(
  trx: Trx,
  order: ChangeOrderRow,
  caller: Caller,
  status: 'accepted' | 'rejected' | 'withdrawn',
  set: Partial<Pick<ChangeOrderRow, 'value_before_minor' | 'value_after_minor' | 'rejection_reason'>> = {},
) {
  const now = nowIso()
  const row = await trx
    .updateTable('change_order')
    .set({ ...set, status, decided_by: caller.userId, decided_at: now, updated_at: now })
    .where('id', '=', order.id)
    .where('status', '=', 'proposed')
    .returningAll()
    .executeTakeFirst()
  if (!row) throw conflict(`Change order ${order.number} changed meanwhile; reload and try again`)
  return row
}

/** The other party rejects it with a reason, or its proposer withdraws it: nothing of the contract changes. */
export async function close(
  deps: ChangeOrderDeps,
  caller: Caller,
  projectId: number,
  id: number,
  decision: 'reject' | 'withdraw',
  reason?: string,
) {
  const { db, publicUrl } = deps
  const found = await partyContract(db, caller, projectId)
  await db.transaction().execute(async (trx) => {
    const contract = (await lockRow(trx, deps.dialect, 'contract', found.id))!
    const order = await pendingOrder(deps, trx, contract, id, caller, decision)
    const status = decision === 'reject' ? 'rejected' : 'withdrawn'
    const decided = await decide(
      trx,
      order,
      caller,
      status,
      decision === 'reject' ? { rejection_reason: reason ?? null } : {},
    )
    const title = await projectTitle(trx, projectId)
    await announceStep(trx, publicUrl, status, { contract, order: decided, actorId: caller.userId, title })
  })
  return show(db, caller, id)
}
