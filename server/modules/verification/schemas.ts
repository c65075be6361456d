import { z } from 'zod'
import { recordId, shownName } from '#server/api/contract.ts'
import { REASON_MAX, verificationKinds, verificationStates } from './choices.ts'

// Verified identity's shapes (decision 332): the request's form (the document beside its kind), a
// person's status, the admin queue and the admin's decision. One schema per entity, shared by the
// pages' forms and the API.

export const verificationRequestInput = z.object({
  kind: z.enum(verificationKinds, { error: `must be one of ${verificationKinds.join(', ')}` }),
})

const reason = z
  .string({ error: 'is required' })
  .trim()
  .max(REASON_MAX, `must be at most ${REASON_MAX} characters`)

export const verificationDecision = z
  .object({
    decision: z.enum(['approve', 'reject'], { error: 'must be approve or reject' }),
    reason: reason.optional().default(''),
  })
  .refine((v) => v.decision === 'approve' || v.reason.length > 0, {
    path: ['reason'],
    message: 'is required to reject a request',
  })

export const verificationStatus = z.object({
  state: z.enum(verificationStates),
  /** Whether the caller may ask (a freelancer or a company without an open or approved request). */
  canAsk: z.boolean(),
  kind: z.enum(verificationKinds).nullable(),
  /** A rejection's reason, as the admin wrote it. */
  reason: z.string().nullable(),
  requestedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
})
export type VerificationStatus = z.output<typeof verificationStatus>

export const verificationQueueItem = z.object({
  id: recordId,
  userId: recordId,
  name: shownName,
  email: z.string(),
  accountType: z.string(),
  kind: z.enum(verificationKinds),
  requestedAt: z.string(),
  document: z.object({ name: z.string(), mime: z.string(), size: z.number().int() }).nullable(),
})

export const verificationQueue = z.object({
  data: z.array(verificationQueueItem),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
})

export const verificationDecided = z.object({
  id: recordId,
  state: z.enum(['verified', 'rejected']),
  reason: z.string().nullable(),
  decidedAt: z.string(),
})
