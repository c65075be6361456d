import { z } from 'zod'
import { MAX_DB_INTEGER, shownName } from '#server/api/contract.ts'
import { id, oneOf, person } from '../schemas/fields.ts'
import {
  deliverableLimits as limits,
  issueStatuses,
  outcomes,
  revisionSchemes,
  type Outcome,
} from './rules.ts'

// The register's one input schema per entity (a deliverable, an issue, an answer), shared by the
// forms of the contract page and the API; their rules are keys of the `deliverables` namespace.

export const problem = (key: string) => `deliverables:errors.${key}`
const required = problem('required')
const missing = (input: unknown) => input === undefined || input === ''
const text = (min: number, max: number) =>
  z.string({ error: required }).trim().min(min, required).max(max, problem('tooLong'))
const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (issue) => (missing(issue.input) ? required : problem('choose')) })

const revision = z
  .string({ error: required })
  .trim()
  .toUpperCase()
  .min(1, required)
  .max(limits.revision, problem('tooLong'))
const recordId = z.coerce
  .number({ error: problem('choose') })
  .int(problem('choose'))
  .positive(problem('choose'))
  .max(MAX_DB_INTEGER, problem('choose'))

export const deliverableInput = z.object({
  number: text(1, limits.number),
  title: text(1, limits.title),
  discipline: text(1, limits.discipline),
  installmentId: recordId,
  /** The contract's revision scheme, fixed with its first deliverable; later it must match or be left out. */
  scheme: choice(revisionSchemes).optional(),
})
export type DeliverableInput = z.output<typeof deliverableInput>

export const issueInput = z.object({
  revision,
  status: choice(issueStatuses),
  note: text(1, limits.note),
})
export type IssueInput = z.output<typeof issueInput>

/**
 * Several deliverables of one installment issued at once under one transmittal, each at its own
 * next revision, with one status and one note for all of them (issue 40: "each issue produces a
 * transmittal").
 */
export const transmittalInput = z.object({
  installmentId: recordId,
  status: choice(issueStatuses),
  note: text(1, limits.note),
  items: z
    .array(z.object({ deliverableId: recordId, revision }), { error: problem('chooseSome') })
    .min(1, problem('chooseSome'))
    .max(limits.perTransmittal, problem('tooMany')),
})
export type TransmittalInput = z.output<typeof transmittalInput>

/**
 * The register's issue form: one row per deliverable of the installment, with a revision chosen
 * or left blank (not issued this time). It becomes the API's body; rows keep their index so an
 * error stands under its row.
 */
export const transmittalForm = transmittalInput
  .extend({
    items: z
      .array(z.object({ deliverableId: recordId, revision: revision.optional() }))
      .max(limits.perTransmittal, problem('tooMany'))
      .default([]),
  })
  .superRefine((v, ctx) => {
    if (!v.items.some((i) => i.revision))
      ctx.addIssue({ code: 'custom', path: ['items'], message: problem('chooseSome') })
  })
  .transform((v): TransmittalInput => ({
    ...v,
    items: v.items.flatMap((i) =>
      i.revision ? [{ deliverableId: i.deliverableId, revision: i.revision }] : [],
    ),
  }))

export const answerInput = z
  .object({
    outcome: choice(outcomes),
    comment: z.string().trim().max(limits.comment, problem('tooLong')).default(''),
  })
  .superRefine((v, ctx) => {
    if (needsWords(v.outcome) && !v.comment)
      ctx.addIssue({ code: 'custom', path: ['comment'], message: problem('commentNeeded') })
  })
export type AnswerInput = z.output<typeof answerInput>
const needsWords = (o: Outcome) => o !== 'approved'

// ---- what the API answers --------------------------------------------------------------------

const file = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  size: z.number(),
  mime: z.string(),
})
export const answerOut = z.object({
  outcome: oneOf(outcomes),
  comment: z.string(),
  respondedBy: person,
  respondedAt: z.string(),
})
export const issueOut = z.object({
  id: z.number(),
  revision: z.string(),
  status: oneOf(issueStatuses),
  note: z.string(),
  issuedBy: person,
  issuedAt: z.string(),
  transmittal: z.object({ id: z.number(), number: z.string() }),
  files: z.array(file),
  answer: answerOut.nullable(),
})
export const deliverableOut = z.object({
  id: z.number(),
  projectId: z.number(),
  /** The caller's side of the contract: the freelancer issues, the client answers. */
  role: z.enum(['client', 'freelancer']),
  number: z.string(),
  title: z.string(),
  discipline: z.string(),
  installment: z.object({ id: z.number(), title: z.string(), status: z.string() }),
  position: z.number(),
  /** The revisions the next issue may take (empty once the contract is no longer active). */
  nextRevisions: z.array(z.string()),
  /** Newest first. */
  issues: z.array(issueOut),
})
export const registerOut = z.object({
  page: z.number(),
  pageSize: z.number(),
  /** Deliverables in the register, of which `data` is one page in its order. */
  total: z.number(),
  contractId: z.number(),
  projectId: z.number(),
  projectTitle: z.string(),
  role: z.enum(['client', 'freelancer']),
  contractStatus: z.string(),
  scheme: oneOf(revisionSchemes).nullable(),
  installments: z.array(z.object({ id: z.number(), title: z.string(), status: z.string() })),
  data: z.array(deliverableOut),
})
export const transmittalOut = z.object({
  id: z.number(),
  number: z.string(),
  contractId: z.number(),
  projectId: z.number(),
  projectTitle: z.string(),
  createdAt: z.string(),
  sender: person,
  recipient: z.object({ id: z.number(), name: shownName, imageUrl: z.string().nullable() }),
  items: z.array(
    z.object({
      deliverableId: z.number(),
      number: z.string(),
      title: z.string(),
      discipline: z.string(),
      revision: z.string(),
      status: oneOf(issueStatuses),
      note: z.string(),
      files: z.array(file),
    }),
  ),
})
export const deliverableParams = z.object({ deliverableId: id })
/** A page of the register: 50 deliverables with their whole history by default, 100 at most. */
export const registerQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
  /** Only the deliverables of this installment (the form that issues several of them at once). */
  installmentId: z.coerce.number().int().positive().max(MAX_DB_INTEGER).optional(),
})
