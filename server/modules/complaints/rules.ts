import { z } from 'zod'
import {
  DEFAULT_MAX_FILE_KB,
  documentExtensions,
  extensionOf,
  imageExtensions,
  problems,
} from '../files/rules.ts'
import { complaintStates } from './machine.ts'

// Complaint limits and the one zod schema of each form, shared by the API (which enforces them)
// and the pages (which parse the same fields with conform). Messages here are keys of the
// `complaints` namespace's `errors`; the API sends them as they are (decision 212).
export const complaintLimits = {
  title: 150,
  body: 5000,
  reason: 1000,
  attachments: 5,
  documentKb: 10_240,
  pageSize: 20,
} as const

/** What a complaint can be about; everything but the platform names one object the author is part of. */
export const subjectKinds = ['project', 'contract', 'installment', 'chat_room', 'user', 'platform'] as const
export type SubjectKind = (typeof subjectKinds)[number]

/** Images keep SPEC §5's limit; documents (reports, drawings, screenshots as pdf) may be larger. */
export function complaintAttachmentRule(fileName: string) {
  const ext = extensionOf(fileName)
  if ((imageExtensions as readonly string[]).includes(ext))
    return { kind: 'image' as const, limitKb: DEFAULT_MAX_FILE_KB }
  if ((documentExtensions as readonly string[]).includes(ext))
    return { kind: 'document' as const, limitKb: complaintLimits.documentKb }
  return problems.invalidDocument()
}

const text = (max: number, min = 1) =>
  z
    .string({ error: 'errors.required' })
    .trim()
    .min(min, min > 1 ? 'errors.tooShort' : 'errors.required')
    .max(max, 'errors.tooLong')

/** "kind:id" in the form's one select ("platform" alone): which object the complaint is about. */
export const subjectValue = z
  .string({ error: 'errors.subject' })
  .regex(/^(platform|(project|contract|installment|chat_room|user):[1-9]\d{0,9})$/, 'errors.subject')

export const newComplaintSchema = z.object({
  subject: subjectValue,
  title: text(complaintLimits.title, 3),
  description: text(complaintLimits.body, 10),
})
export type NewComplaint = z.output<typeof newComplaintSchema>

export const replySchema = z.object({ body: text(complaintLimits.body) })

export const stateChangeSchema = z.object({
  state: z.enum(complaintStates, { error: 'errors.state' }),
  reason: text(complaintLimits.reason, 3),
})

/** The admin's decision on a dispute (decision 231): the amounts follow from what is held; a split names the part refunded, in minor units. */
export const decisionOutcomes = ['release', 'refund', 'split'] as const
export const decisionSchema = z.object({
  outcome: z.enum(decisionOutcomes, { error: 'disputes:errors.outcome' }),
  refundMinor: z.coerce
    .number({ error: 'disputes:errors.amount' })
    .int('disputes:errors.amount')
    .positive('disputes:errors.amount')
    .optional(),
  reason: text(complaintLimits.reason, 3),
})

/** The admin page's form of that decision: the split's refund as the admin types money ("400.00"). */
export const decisionForm = z
  .object({
    outcome: z.enum(decisionOutcomes, { error: 'disputes:errors.outcome' }),
    refund: z
      .string()
      .trim()
      .regex(/^\d{1,9}([.,]\d{1,2})?$/, 'disputes:errors.amount')
      .optional(),
    reason: text(complaintLimits.reason, 3),
  })
  .superRefine((v, ctx) => {
    if (v.outcome === 'split' && !v.refund)
      ctx.addIssue({ code: 'custom', path: ['refund'], message: 'disputes:errors.amount' })
  })

/** Kinds whose other party may read and answer the ticket (decision 232); a person reported by name does not see the report. */
export const partyKinds: readonly SubjectKind[] = ['project', 'contract', 'installment', 'chat_room']

export function parseSubject(value: string): { kind: SubjectKind; id: number | null } {
  if (value === 'platform') return { kind: 'platform', id: null }
  const [kind, id] = value.split(':')
  return { kind: kind as SubjectKind, id: Number(id) }
}
