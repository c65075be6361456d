import { z } from 'zod'
import {
  DEFAULT_MAX_FILE_KB,
  documentExtensions,
  extensionOf,
  imageExtensions,
  problems,
} from '../files/rules.ts'
import { money } from '#server/api/form-fields.ts'
import { parseAmount } from '../projects/rules.ts'
import { complaintStates } from './machine.ts'
import { complaintLimits, decisionOutcomes, subjectKinds, type SubjectKind } from './limits.ts'

// Complaint limits and the one zod schema of each form, shared by the API (which enforces them)
// and the pages (which parse the same fields with conform). Messages here are keys of the
// `complaints` and `disputes` namespaces: the page shows them in the reader's language and the API
// words them for its caller (server/api/messages.ts).
export { complaintLimits, decisionOutcomes, subjectKinds, type SubjectKind }

/** Images keep docs/product.md §5's limit; documents (reports, drawings, screenshots as pdf) may be larger. */
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
    .string({ error: 'complaints:errors.required' })
    .trim()
    .min(min, min > 1 ? 'complaints:errors.tooShort' : 'complaints:errors.required')
    .max(max, 'complaints:errors.tooLong')

/** "kind:id" in the form's one select ("platform" alone): which object the complaint is about. */
export const subjectValue = z
  .string({ error: 'complaints:errors.subject' })
  .regex(
    /^(platform|(project|contract|installment|chat_room|user):[1-9]\d{0,9})$/,
    'complaints:errors.subject',
  )

export const newComplaintSchema = z.object({
  subject: subjectValue,
  title: text(complaintLimits.title, 3),
  description: text(complaintLimits.body, 10),
})
export type NewComplaint = z.output<typeof newComplaintSchema>

export const replySchema = z.object({ body: text(complaintLimits.body) })

export const stateChangeSchema = z.object({
  state: z.enum(complaintStates, { error: 'complaints:errors.state' }),
  reason: text(complaintLimits.reason, 3),
})

/**
 * The admin's decision on a dispute (decision 231): the amounts follow from what is held; a split
 * names the part refunded, in minor units (the admin page types it as money, "400.00"). An amount
 * given with another outcome is not used.
 */
const refundAmount = money(
  parseAmount,
  { required: 'disputes:errors.amount', invalid: 'disputes:errors.amount' },
  (minor) => minor.positive('disputes:errors.amount'),
)
export const decisionSchema = z
  .object({
    outcome: z.enum(decisionOutcomes, { error: 'disputes:errors.outcome' }),
    refundMinor: refundAmount.optional(),
    reason: text(complaintLimits.reason, 3),
  })
  .superRefine((v, ctx) => {
    if (v.outcome === 'split' && v.refundMinor === undefined)
      ctx.addIssue({ code: 'custom', path: ['refundMinor'], message: 'disputes:errors.amount' })
  })
  .transform((v) => (v.outcome === 'split' ? v : { ...v, refundMinor: undefined }))

/** Support holds one of the contract's installments for a complaint's dispute (decision 313). */
export const holdSchema = z.object({
  installmentId: z.coerce
    .number({ error: 'disputes:errors.installment' })
    .int('disputes:errors.installment')
    .positive('disputes:errors.installment'),
})

/** Kinds whose other party may read and answer the ticket (decision 232); a person reported by name does not see the report. */
export const partyKinds: readonly SubjectKind[] = ['project', 'contract', 'installment', 'chat_room']

export function parseSubject(value: string): { kind: SubjectKind; id: number | null } {
  if (value === 'platform') return { kind: 'platform', id: null }
  const [kind, id] = value.split(':')
  return { kind: kind as SubjectKind, id: Number(id) }
}
