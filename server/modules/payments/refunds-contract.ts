import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import { refundLimits, refundStatuses } from './states.ts'

// Refund requests (docs/product.md §7 `RefundRequest/{a}/{b}/{c}`, decision 180): POST
// RefundRequest/{projectId}/{installmentId}/{amount} with a reason asks for `amount` minor units of
// an installment's price back; the amount is checked against what is held for that installment.
// The freelancer answers at refund-requests/{id}/accept or /decline; the client may then dispute.
export { refundLimits }
const id = recordId
const reason = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(refundLimits.reason, `must be at most ${refundLimits.reason} characters`)
const tag = 'Refunds'

export const refundOut = z.object({
  id: z.number(),
  projectId: z.number(),
  installmentId: z.number(),
  status: z.enum(refundStatuses),
  amountMinor: z.number(),
  feeMinor: z.number(),
  currency: z.string(),
  reason: z.string(),
  declineReason: z.string().nullable(),
  respondBy: z.string(),
  overdue: z.boolean(),
  canDispute: z.boolean(),
  gatewayStatus: z.enum(['pending', 'succeeded', 'failed']).nullable(),
  decisionNote: z.string().nullable(),
  /** The complaint whose dispute this is (decision 230); null for a client's own request. */
  complaintId: z.number().nullable(),
  createdAt: z.string(),
})
export type RefundOut = z.output<typeof refundOut>

/** The web form's fields (the amount as the client types it, "12.50"); the API takes minor units in the path. */
export const refundRequestForm = z.object({
  installmentId: id,
  amount: z
    .string({ error: 'refunds:errors.amount' })
    .trim()
    .refine(
      (v) => /^\d{1,9}([.,]\d{1,2})?$/.test(v.replace(/\s/g, '')) && Number(v.replace(',', '.')) > 0,
      'refunds:errors.amount',
    ),
  reason: z
    .string({ error: 'refunds:errors.reason' })
    .trim()
    .min(1, 'refunds:errors.reason')
    .max(refundLimits.reason, 'refunds:errors.tooLong'),
})
export const refundDeclineForm = z.object({
  requestId: id,
  reason: z
    .string({ error: 'refunds:errors.declineReason' })
    .trim()
    .min(1, 'refunds:errors.declineReason')
    .max(refundLimits.reason, 'refunds:errors.tooLong'),
})

export const refundsContract = {
  request: endpoint({
    method: 'POST',
    path: 'RefundRequest/{projectId}/{installmentId}/{amount}',
    summary:
      "The client asks for `amount` minor units of a funded, not yet released installment's price back (its share of the client fee goes back with it), with a reason",
    tag,
    access: 'user',
    params: z.object({
      projectId: id,
      installmentId: id,
      amount: z.coerce
        .number({ error: 'must be a number' })
        .int('must be whole minor units')
        .positive('must be more than 0'),
    }),
    body: z.object({ reason }),
    response: refundOut,
  }),
  list: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/refund-requests',
    summary:
      "The contract's refund requests, newest first, and how much of each held installment may still be asked back (its client and freelancer)",
    tag,
    access: 'user',
    params: z.object({ projectId: id }),
    response: z.object({
      data: z.array(refundOut),
      refundable: z.array(
        z.object({ installmentId: z.number(), refundableMinor: z.number(), open: z.boolean() }),
      ),
      responseDays: z.number(),
    }),
  }),
  accept: endpoint({
    method: 'POST',
    path: 'refund-requests/{requestId}/accept',
    summary: 'The freelancer accepts: the money goes back through the gateway that took it',
    tag,
    access: 'user',
    params: z.object({ requestId: id }),
    response: refundOut,
  }),
  decline: endpoint({
    method: 'POST',
    path: 'refund-requests/{requestId}/decline',
    summary: 'The freelancer declines, with a reason',
    tag,
    access: 'user',
    params: z.object({ requestId: id }),
    body: z.object({ reason }),
    response: refundOut,
  }),
  dispute: endpoint({
    method: 'POST',
    path: 'refund-requests/{requestId}/dispute',
    summary:
      'The client opens a dispute over a declined request or one left unanswered past its deadline: the installment is frozen until an admin decides',
    tag,
    access: 'user',
    params: z.object({ requestId: id }),
    response: refundOut,
  }),
}
