import { z } from 'zod'
import { endpoint, recordId, shownName } from '#server/api/contract.ts'
import { day, price, writing } from '../schemas/fields.ts'
import { changeOrderLimits, changeOrderStates, effectKinds } from './states.ts'

export { changeOrderLimits, changeOrderStates, effectKinds }
export type { ChangeOrderState, EffectKind } from './states.ts'

// Change orders (issue 40 item 2, decision 319): either party of an active contract proposes a
// change with a description, a reason and its effects; the other party accepts or rejects it (with
// a reason); the proposer may withdraw it while it is pending. Rules are worded as keys of the
// `changeOrders` namespace, so the page and the API say them in the reader's language.

const problem = (key: string) => `changeOrders:errors.${key}`
const tag = 'Change orders'

const title = writing(1, changeOrderLimits.title)
/** Text a party writes, whose absence is named by `key` ("Say why you reject it."). */
const text = (max: number, key: string) =>
  z
    .string({ error: problem(key) })
    .trim()
    .min(1, problem(key))
    .max(max, 'projects:errors.tooLong')
/** One effect of a change order: an installment added, one changed or reduced, or the deadline moved. */
export const effectIn = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('add'), title, amountMinor: price(), dueDate: day.optional() }),
    z.object({
      kind: z.literal('change'),
      installmentId: recordId,
      title: title.optional(),
      amountMinor: price().optional(),
      dueDate: day.optional(),
    }),
    z.object({ kind: z.literal('reduce'), installmentId: recordId, amountMinor: price() }),
    /** An unreleased installment taken off the contract; money held for it goes back to the client. */
    z.object({ kind: z.literal('remove'), installmentId: recordId }),
    z.object({ kind: z.literal('deadline'), dueDate: day }),
  ],
  { error: problem('kind') },
)
export type EffectIn = z.output<typeof effectIn>

/** The change order a party proposes (the API's body; the page's form becomes one, changeOrderForm). */
export const changeOrderIn = z.object({
  description: text(changeOrderLimits.description, 'description'),
  reason: text(changeOrderLimits.reason, 'reason'),
  effects: z
    .array(effectIn, { error: problem('effects') })
    .min(1, problem('effects'))
    .max(changeOrderLimits.effects, problem('tooManyEffects')),
})
export type ChangeOrderIn = z.output<typeof changeOrderIn>

/** The page's form: one effect per change order, its fields flat as a plain HTML form sends them. */
export const changeOrderForm = z
  .object({
    description: changeOrderIn.shape.description,
    reason: changeOrderIn.shape.reason,
    kind: z.enum(effectKinds, { error: problem('kind') }),
    installmentId: z.coerce.number().int().positive().optional(),
    title: title.optional(),
    amountMinor: price().optional(),
    dueDate: day.optional(),
  })
  .superRefine((f, ctx) => {
    const need = (field: 'installmentId' | 'title' | 'amountMinor' | 'dueDate', key: string) =>
      f[field] === undefined && ctx.addIssue({ code: 'custom', path: [field], message: problem(key) })
    if (f.kind === 'add') {
      need('title', 'title')
      need('amountMinor', 'amount')
    }
    if (f.kind === 'change' || f.kind === 'reduce' || f.kind === 'remove')
      need('installmentId', 'installment')
    if (f.kind === 'reduce') need('amountMinor', 'amount')
    if (f.kind === 'deadline') need('dueDate', 'deadline')
  })
  .transform(({ description, reason, ...e }): ChangeOrderIn => {
    const effect: EffectIn =
      e.kind === 'add'
        ? { kind: 'add', title: e.title!, amountMinor: e.amountMinor!, dueDate: e.dueDate }
        : e.kind === 'reduce'
          ? { kind: 'reduce', installmentId: e.installmentId!, amountMinor: e.amountMinor! }
          : e.kind === 'remove'
            ? { kind: 'remove', installmentId: e.installmentId! }
            : e.kind === 'deadline'
              ? { kind: 'deadline', dueDate: e.dueDate! }
              : {
                  kind: 'change',
                  installmentId: e.installmentId!,
                  title: e.title,
                  amountMinor: e.amountMinor,
                  dueDate: e.dueDate,
                }
    return { description, reason, effects: [effect] }
  })

export const rejectionIn = z.object({
  reason: text(changeOrderLimits.reason, 'rejectionReason'),
})

const effectOut = z.object({
  kind: z.enum(effectKinds),
  installmentId: z.number().nullable(),
  title: z.string().nullable(),
  amountMinor: z.number().nullable(),
  dueDate: z.string().nullable(),
  oldTitle: z.string().nullable(),
  oldAmountMinor: z.number().nullable(),
  oldDueDate: z.string().nullable(),
  /** Held money given back to the client when it was accepted (a reduced funded installment). */
  refundedMinor: z.number().nullable(),
})
export const changeOrderOut = z.object({
  id: z.number(),
  projectId: z.number(),
  contractId: z.number(),
  number: z.number(),
  proposerId: z.number(),
  proposerName: shownName,
  description: z.string(),
  reason: z.string(),
  status: z.enum(changeOrderStates),
  currency: z.string(),
  /** What the contract's value becomes if it is accepted (as of now); once accepted, what it became. */
  deltaMinor: z.number(),
  valueBeforeMinor: z.number().nullable(),
  valueAfterMinor: z.number().nullable(),
  decidedBy: z.number().nullable(),
  decidedAt: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  effects: z.array(effectOut),
  /** Whether the caller may accept or reject it (the other party, while it is proposed), or withdraw it (its proposer). */
  canDecide: z.boolean(),
  canWithdraw: z.boolean(),
  createdAt: z.string(),
})
export type ChangeOrderOut = z.output<typeof changeOrderOut>

export const changeOrderListOut = z.object({
  data: z.array(changeOrderOut),
  currency: z.string(),
  /** The contract's value when it started, the sum of the accepted changes, and its value now. */
  originalMinor: z.number(),
  approvedChangesMinor: z.number(),
  currentMinor: z.number(),
  /** The deadline of the last accepted change that moved it, else the project's (null when none). */
  deadline: z.string().nullable(),
  contractStatus: z.string(),
  /** An hourly contract takes no change orders (decision 323). */
  billing: z.enum(['fixed', 'hourly']),
  projectTitle: z.string(),
  /** The caller's side of the contract, and the installments a change may name, in order. */
  role: z.enum(['client', 'freelancer']),
  installments: z.array(
    z.object({
      id: z.number(),
      position: z.number(),
      title: z.string(),
      amountMinor: z.number(),
      dueDate: z.string().nullable(),
      status: z.string(),
    }),
  ),
})

const projectId = recordId
const path = 'projects/{projectId}/change-orders'
const one = z.object({ projectId, changeOrderId: recordId })
export const changeOrdersContract = {
  list: endpoint({
    method: 'GET',
    path,
    summary:
      "The contract's change orders, newest first, with its original value, the approved changes and its value now (its two parties)",
    tag,
    access: 'user',
    params: z.object({ projectId }),
    response: changeOrderListOut,
  }),
  propose: endpoint({
    method: 'POST',
    path,
    summary:
      'Either party proposes a change order on an active contract: a description, a reason and its effects (an installment added, an unreleased one changed, reduced or removed, the deadline moved)',
    tag,
    access: 'user',
    params: z.object({ projectId }),
    body: changeOrderIn,
    response: changeOrderOut,
  }),
  accept: endpoint({
    method: 'POST',
    path: `${path}/{changeOrderId}/accept`,
    summary:
      'The other party accepts: the contract is amended in one transaction; held money of a reduced or removed installment goes back to the client',
    tag,
    access: 'user',
    params: one,
    response: changeOrderOut,
  }),
  reject: endpoint({
    method: 'POST',
    path: `${path}/{changeOrderId}/reject`,
    summary: 'The other party rejects it, with a reason',
    tag,
    access: 'user',
    params: one,
    body: rejectionIn,
    response: changeOrderOut,
  }),
  withdraw: endpoint({
    method: 'POST',
    path: `${path}/{changeOrderId}/withdraw`,
    summary: 'The proposer withdraws it while it is pending',
    tag,
    access: 'user',
    params: one,
    response: changeOrderOut,
  }),
}
