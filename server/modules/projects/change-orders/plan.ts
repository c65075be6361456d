import { ApiError } from '#server/api/errors.ts'
import type { InstallmentMoney } from '#server/modules/payments/change-order-money.ts'
import type { Trx } from '../transition.ts'
import { badRequest, spoken, type ContractRow, type InstallmentRow } from '../shared.ts'
import { today } from '../schemas/fields.ts'
import { issuedDeliverables } from '../deliverables/gates.ts'
import type { EffectIn } from './contract.ts'

// What a change order's effects would do to the contract as it is now, checked before anything is
// written: when it is proposed (so a party cannot propose what could never be accepted) and again,
// on locked rows, when it is accepted (an installment may have been released meanwhile).

const key = (k: string) => `changeOrders:errors.${k}`
/** Installment states a change order may no longer touch: its money is being, or has been, released, or it was removed. */
const closedStates = ['approved', 'released', 'removed']

export type Step =
  | { kind: 'add'; title: string; amountMinor: number; dueDate: string | null }
  | {
      /** `remove`: taken off the contract (a reduction to zero is one too), its amount then zero. */
      kind: 'change' | 'reduce' | 'remove'
      i: InstallmentRow
      title: string
      amountMinor: number
      dueDate: string | null
      /** Held money that goes back to the client (a reduced funded installment). */
      giveBackMinor: number
    }
  | { kind: 'deadline'; dueDate: string }

export type Plan = { steps: Step[]; deltaMinor: number; valueAfterMinor: number }

/** A refusal that names the field and the state it found (409: the contract's state forbids it). */
const stateConflict = (field: string, detail: string, state: string) =>
  new ApiError(409, 'Conflict', detail, { [field]: [detail], state: [state] })

type Money = (trx: Trx, installmentId: number) => Promise<InstallmentMoney>

/** An installment whose deliverables were issued keeps them: it is not removed (409 naming them). */
async function removable(trx: Trx, i: InstallmentRow, f: string) {
  const issued = await issuedDeliverables(trx, i.id)
  if (issued.length)
    throw stateConflict(
      `${f}.installmentId`,
      `The installment “${i.title}” has issued deliverables (${issued.join(', ')}); it cannot be removed`,
      'issued',
    )
}

async function changed(
  trx: Trx,
  money: Money,
  e: EffectIn & { kind: 'change' | 'reduce' | 'remove' },
  i: InstallmentRow,
  f: string,
) {
  if (closedStates.includes(i.status))
    throw stateConflict(
      `${f}.installmentId`,
      `The installment “${i.title}” is ${spoken(i.status)}; a change order can no longer touch it`,
      i.status,
    )
  const { heldMinor, busy } = await money(trx, i.id)
  if (busy)
    throw stateConflict(
      `${f}.installmentId`,
      busy === 'refund_open'
        ? `A refund request for “${i.title}” is open or disputed; settle it first`
        : `A payment for “${i.title}” is being confirmed; try again once it is done`,
      busy,
    )
  const amountMinor =
    e.kind === 'remove'
      ? 0
      : e.kind === 'reduce'
        ? i.amount_minor - e.amountMinor
        : (e.amountMinor ?? i.amount_minor)
  if (e.kind === 'reduce' && amountMinor < 0) throw badRequest(`${f}.amountMinor`, key('negative'))
  const kind = amountMinor === 0 ? 'remove' : e.kind
  if (kind === 'remove') await removable(trx, i, f)
  if (e.kind === 'change' && e.title === undefined && e.amountMinor === undefined && e.dueDate === undefined)
    throw badRequest(f, key('nothing'))
  // Money held for it can be given back, not added to: a larger price is a new installment.
  if (heldMinor !== null && amountMinor > heldMinor)
    throw stateConflict(
      `${f}.amountMinor`,
      `“${i.title}” is ${spoken(i.status)} with ${heldMinor} held; its amount can only be lowered (add an installment for more)`,
      i.status,
    )
  return {
    kind,
    i,
    title: (e.kind === 'change' ? e.title : undefined) ?? i.title,
    amountMinor,
    dueDate: (e.kind === 'change' ? e.dueDate : undefined) ?? i.due_date,
    giveBackMinor: heldMinor === null ? 0 : heldMinor - amountMinor,
  } satisfies Step
}

/** The steps of `effects` on this contract and its installments, or a 400/409 naming the field or state. */
export async function planOf(
  trx: Trx,
  money: Money,
  contract: ContractRow,
  installments: InstallmentRow[],
  effects: EffectIn[],
): Promise<Plan> {
  const steps: Step[] = []
  const touched = new Set<number>()
  let deadlines = 0
  for (const [n, e] of effects.entries()) {
    const f = `effects.${n}`
    if (e.kind === 'add') {
      steps.push({ kind: 'add', title: e.title, amountMinor: e.amountMinor, dueDate: e.dueDate ?? null })
      continue
    }
    if (e.kind === 'deadline') {
      if (e.dueDate < today()) throw badRequest(`${f}.dueDate`, 'projects:errors.deadlinePast')
      if (deadlines++) throw badRequest(`${f}.kind`, key('twice'))
      steps.push({ kind: 'deadline', dueDate: e.dueDate })
      continue
    }
    const i = installments.find((row) => row.id === e.installmentId)
    if (!i) throw badRequest(`${f}.installmentId`, key('installment'))
    if (touched.has(i.id)) throw badRequest(`${f}.installmentId`, key('twice'))
    touched.add(i.id)
    steps.push(await changed(trx, money, e, i, f))
  }
  const deltaMinor = steps.reduce(
    (sum, s) =>
      sum + (s.kind === 'add' ? s.amountMinor : s.kind === 'deadline' ? 0 : s.amountMinor - s.i.amount_minor),
    0,
  )
  const valueAfterMinor = contract.amount_minor + deltaMinor
  if (valueAfterMinor <= 0) throw badRequest('effects', key('totalNegative'))
  return { steps, deltaMinor, valueAfterMinor }
}
