import { z } from 'zod'
import { endpoint, recordId, MAX_DB_INTEGER, shownName } from '../../api/contract.ts'
import {
  budgetTypes,
  clientStates,
  currencies,
  experienceLevels,
  homeSearchTypes,
  installmentActions,
  limits,
  planTotal,
  postedWithinDays,
  projectSorts,
} from './rules.ts'
import { contractStates, installmentStates, projectStates, proposalStates } from './machines.ts'

// Projects, proposals and contracts (SPEC §7 "Projects"). Parameter meanings the spec leaves open:
// - proposals/{proposalId}/accept/{projectId} and …/reject/{projectId}: both ids, so a form can
//   never act on a proposal of another project by mistake;
// - updatestate/{state}: the client's moves, open (publish a draft), cancelled, completed;
// - subscrib/{projectId}: follow (POST) or stop following (DELETE) a project's updates;
// - comment/{projectId}: list (GET) or add (POST) public questions and answers;
// - HomeSearch/{type}/{term}: the home search's suggestions, type projects or workneerer, term
//   'all' for none;
// - Createroom/{projectId}/{userId}: the chat room of the caller and the other party of the project
//   (its client and a freelancer with a contract or a proposal on it); the same room every time;
// - GetCommentsAndReviewes?userId=: the visible reviews about a user (default: the caller).
const id = recordId
const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` })
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .refine((v) => !Number.isNaN(Date.parse(v)), 'must be a real date')
const amount = z
  .number({ error: 'must be a number' })
  .int('must be whole minor units')
  .positive('must be above zero')
  .max(limits.amountMinor, 'is too large')
const text = (min: number, max: number) =>
  z
    .string({ error: 'is required' })
    .trim()
    .min(min, `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
const page = {
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(limits.pageSize).default(20),
}
const paged = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), page: z.number(), pageSize: z.number(), total: z.number() })
const list = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) })
const projectParams = z.object({ projectId: id })

export const planItem = z.object({
  title: text(1, limits.installmentTitle),
  amountMinor: amount,
  dueDate: isoDate.optional(),
})
export const plan = z
  .array(planItem)
  .max(limits.installments, `must have at most ${limits.installments} installments`)

export const projectInput = z
  .object({
    title: text(limits.title.min, limits.title.max),
    description: text(limits.description.min, limits.description.max),
    subcategoryId: id,
    skillIds: z.array(id).max(limits.skills, `must have at most ${limits.skills} skills`).default([]),
    budgetType: oneOf(budgetTypes),
    budgetMinor: amount,
    currency: oneOf(currencies),
    durationDays: z
      .number()
      .int()
      .min(1, 'must be at least 1')
      .max(limits.durationDays, 'is too long')
      .optional(),
    deadline: isoDate.optional(),
    experienceLevel: oneOf(experienceLevels).optional(),
    remote: z.boolean().default(true),
    location: z
      .string()
      .trim()
      .max(limits.location, `must be at most ${limits.location} characters`)
      .optional(),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, 'must be a two-letter country code')
      .optional(),
    installments: plan.default([]),
    /** false keeps the project as a draft. */
    publish: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (!v.remote && !v.location)
      ctx.addIssue({ code: 'custom', path: ['location'], message: 'is required when the work is on site' })
    if (v.budgetType === 'fixed' && v.installments.length && planTotal(v.installments) !== v.budgetMinor) {
      ctx.addIssue({ code: 'custom', path: ['installments'], message: 'must add up to the budget' })
    }
    if (v.deadline && v.deadline < new Date().toISOString().slice(0, 10))
      ctx.addIssue({ code: 'custom', path: ['deadline'], message: 'must not be in the past' })
  })
export type ProjectInput = z.output<typeof projectInput>

export const proposalInput = z.object({
  coverLetter: text(limits.coverLetter.min, limits.coverLetter.max),
  bidMinor: amount,
  durationDays: z
    .number({ error: 'is required' })
    .int()
    .min(1, 'must be at least 1')
    .max(limits.durationDays, 'is too long'),
  installments: plan.default([]),
})
export type ProposalInput = z.output<typeof proposalInput>

export const searchQuery = z.object({
  search: z
    .string()
    .trim()
    .max(limits.searchTerm, `must be at most ${limits.searchTerm} characters`)
    .optional(),
  categoryId: id.optional(),
  subcategoryId: id.optional(),
  skills: z
    .union([id, z.array(id)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.number()).max(limits.skills, 'too many skills')),
  budgetMin: z.coerce.number().int().min(0).max(MAX_DB_INTEGER).optional(),
  budgetMax: z.coerce.number().int().min(0).max(MAX_DB_INTEGER).optional(),
  budgetType: oneOf(budgetTypes).optional(),
  currency: oneOf(currencies).optional(),
  experienceLevel: oneOf(experienceLevels).optional(),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter country code')
    .optional(),
  postedWithin: z.coerce
    .number()
    .int()
    .refine(
      (v) => (postedWithinDays as readonly number[]).includes(v),
      `must be one of ${postedWithinDays.join(', ')}`,
    )
    .optional(),
  remote: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  sort: oneOf(projectSorts).optional(),
  ...page,
})
export type SearchQuery = z.output<typeof searchQuery>

const named = z.object({ id: z.number(), name: z.string() })
const person = z.object({ id: z.number(), name: shownName, imageUrl: z.string().nullable() })
export const attachment = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  attachmentType: z.number(),
  size: z.number(),
  mime: z.string(),
  uploadedBy: z.number(),
  createdAt: z.string(),
})
const planOut = z.array(
  z.object({ title: z.string(), amountMinor: z.number(), dueDate: z.string().optional() }),
)

export const projectSummary = z.object({
  id: z.number(),
  title: z.string(),
  excerpt: z.string(),
  status: z.enum(projectStates),
  category: named.nullable(),
  subcategory: named.nullable(),
  skills: z.array(named),
  budgetType: z.enum(budgetTypes),
  budgetMinor: z.number(),
  currency: z.string(),
  durationDays: z.number().nullable(),
  deadline: z.string().nullable(),
  experienceLevel: z.string().nullable(),
  remote: z.boolean(),
  location: z.string().nullable(),
  country: z.string().nullable(),
  proposalCount: z.number(),
  createdAt: z.string(),
  publishedAt: z.string().nullable(),
  client: person,
})
export type ProjectSummary = z.infer<typeof projectSummary>

export const projectDetails = projectSummary.extend({
  description: z.string(),
  installments: planOut,
  attachments: z.array(attachment),
  wishlisted: z.boolean(),
  subscribed: z.boolean(),
  isOwner: z.boolean(),
})

export const installment = z.object({
  id: z.number(),
  position: z.number(),
  title: z.string(),
  amountMinor: z.number(),
  currency: z.string(),
  dueDate: z.string().nullable(),
  status: z.enum(installmentStates),
  submissionNote: z.string().nullable(),
  feedback: z.string().nullable(),
  files: z.array(attachment),
})

export const contractOut = z.object({
  id: z.number(),
  projectId: z.number(),
  projectTitle: z.string(),
  proposalId: z.number(),
  client: person,
  freelancer: person,
  status: z.enum(contractStates),
  amountMinor: z.number(),
  currency: z.string(),
  /** The chat room of the contract's two parties (opened when the proposal was accepted). */
  roomId: z.number(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  installments: z.array(installment),
})

export const proposalOut = z.object({
  id: z.number(),
  projectId: z.number(),
  projectTitle: z.string(),
  projectStatus: z.enum(projectStates),
  freelancer: person.extend({ title: z.string().nullable(), rating: z.number(), ratingCount: z.number() }),
  status: z.enum(proposalStates),
  coverLetter: z.string(),
  bidMinor: z.number(),
  currency: z.string(),
  durationDays: z.number(),
  installments: planOut,
  revision: z.number(),
  rejectReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  decidedAt: z.string().nullable(),
  attachments: z.array(attachment),
})

export const activity = z.object({
  id: z.number(),
  entity: z.string(),
  entityId: z.number(),
  action: z.string(),
  fromState: z.string().nullable(),
  toState: z.string(),
  note: z.string().nullable(),
  actor: person.nullable(),
  createdAt: z.string(),
})

export const comment = z.object({
  id: z.number(),
  parentId: z.number().nullable(),
  body: z.string(),
  author: person,
  isClient: z.boolean(),
  createdAt: z.string(),
})
export const review = z.object({
  id: z.number(),
  projectId: z.number(),
  projectTitle: z.string(),
  author: person,
  subject: person,
  rating: z.number(),
  body: z.string(),
  createdAt: z.string(),
  visible: z.boolean(),
})

const ok = z.object({ ok: z.literal(true) })
const tag = 'Projects'

export const projectsContract = {
  // Literal paths come before {projectId} ones.
  myProjects: endpoint({
    method: 'GET',
    path: 'projects/client',
    summary: "My Projects: the caller's projects, newest first",
    tag,
    access: 'user',
    query: z.object({ status: oneOf(projectStates).optional(), ...page }),
    response: paged(projectSummary),
  }),
  myProposals: endpoint({
    method: 'GET',
    path: 'projects/freelancer/proposals',
    summary: "My Proposals: the caller's proposals, newest first",
    tag,
    access: 'user',
    query: z.object({ status: oneOf(proposalStates).optional(), ...page }),
    response: paged(proposalOut),
  }),
  myContracts: endpoint({
    method: 'GET',
    path: 'projects/freelancer/contracts',
    summary: "My Contracts: the caller's contracts (as freelancer or client), newest first",
    tag,
    access: 'user',
    query: z.object({ status: oneOf(contractStates).optional(), ...page }),
    response: paged(contractOut),
  }),
  wishlist: endpoint({
    method: 'GET',
    path: 'projects/wishlist',
    summary: 'Saved projects',
    tag,
    access: 'user',
    query: z.object(page),
    response: paged(projectSummary),
  }),
  savedAmong: endpoint({
    method: 'GET',
    path: 'projects/wishlist/ids',
    summary: 'Which of the given projects the caller has saved (for the Save buttons of a list)',
    tag,
    access: 'user',
    query: z.object({
      projectIds: z
        .union([id, z.array(id)])
        .optional()
        .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
        .pipe(z.array(z.number()).max(limits.pageSize, 'too many projects')),
    }),
    response: list(z.number()),
  }),
  publicReviews: endpoint({
    method: 'GET',
    path: 'projects/reviews/{userId}',
    summary: 'The visible reviews about a user and their average rating (public profiles)',
    tag,
    access: 'public',
    params: z.object({ userId: id }),
    query: z.object(page),
    response: paged(review).extend({ average: z.number(), count: z.number() }),
  }),
  homeSearch: endpoint({
    method: 'GET',
    path: 'projects/HomeSearch/{type}/{term}',
    summary: "The home search's suggestions: open projects or freelancers matching the term ('all' for none)",
    tag,
    access: 'public',
    params: z.object({ type: oneOf(homeSearchTypes), term: z.string().trim().max(limits.searchTerm) }),
    response: list(z.object({ id: z.number(), title: z.string(), subtitle: z.string(), url: z.string() })),
  }),
  reviews: endpoint({
    method: 'GET',
    path: 'projects/GetCommentsAndReviewes',
    summary: 'Visible reviews about a user (default: the caller), and the ones the caller wrote or may write',
    tag,
    access: 'user',
    query: z.object({ userId: id.optional(), ...page }),
    response: paged(review).extend({
      average: z.number(),
      count: z.number(),
      toWrite: z.array(
        z.object({
          contractId: z.number(),
          projectId: z.number(),
          projectTitle: z.string(),
          subject: person,
        }),
      ),
    }),
  }),
  writeReview: endpoint({
    method: 'POST',
    path: 'projects/contracts/{contractId}/review',
    summary: 'Review the other side of a completed contract (once)',
    tag,
    access: 'user',
    params: z.object({ contractId: id }),
    body: z.object({
      rating: z.number({ error: 'is required' }).int().min(1, 'must be 1 to 5').max(5, 'must be 1 to 5'),
      body: text(limits.review.min, limits.review.max),
    }),
    response: review,
  }),
  createRoom: endpoint({
    method: 'POST',
    path: 'projects/Createroom/{projectId}/{userId}',
    summary:
      'Opens (or finds) the chat room of the caller and the other party of a project: its client and a freelancer with a contract or a proposal on it',
    tag,
    access: 'user',
    params: z.object({ projectId: id, userId: id }),
    response: z.object({ roomId: z.number(), projectId: z.number(), participants: z.array(z.number()) }),
  }),
  accept: endpoint({
    method: 'POST',
    path: 'projects/proposals/{proposalId}/accept/{projectId}',
    summary:
      'Accept a proposal: creates the contract with the agreed installments (a repeat returns the same contract)',
    tag,
    access: 'user',
    params: z.object({ proposalId: id, projectId: id }),
    response: contractOut,
  }),
  reject: endpoint({
    method: 'POST',
    path: 'projects/proposals/{proposalId}/reject/{projectId}',
    summary: 'Reject a pending proposal',
    tag,
    access: 'user',
    params: z.object({ proposalId: id, projectId: id }),
    body: z.object({ reason: z.string().trim().max(limits.note).optional() }),
    response: proposalOut,
  }),
  reviseProposal: endpoint({
    method: 'PUT',
    path: 'projects/proposals/{proposalId}',
    summary: 'Edit a pending proposal (the previous version is kept)',
    tag,
    access: 'user',
    params: z.object({ proposalId: id }),
    body: proposalInput,
    response: proposalOut,
  }),
  withdrawProposal: endpoint({
    method: 'POST',
    path: 'projects/proposals/{proposalId}/withdraw',
    summary: 'Withdraw a pending proposal',
    tag,
    access: 'user',
    params: z.object({ proposalId: id }),
    response: proposalOut,
  }),
  proposalRevisions: endpoint({
    method: 'GET',
    path: 'projects/proposals/{proposalId}/revisions',
    summary: 'Earlier versions of a proposal (its freelancer and the client)',
    tag,
    access: 'user',
    params: z.object({ proposalId: id }),
    response: list(
      z.object({
        revision: z.number(),
        coverLetter: z.string(),
        bidMinor: z.number(),
        durationDays: z.number(),
        installments: planOut,
        createdAt: z.string(),
      }),
    ),
  }),
  installmentAction: endpoint({
    method: 'POST',
    path: 'projects/installments/{installmentId}/{action}',
    summary:
      'Move an installment: submit (freelancer), request-changes or approve (client; approving releases the held money). Funding goes through Payment/PayProjectInstallments',
    tag,
    access: 'user',
    params: z.object({ installmentId: id, action: oneOf(installmentActions) }),
    body: z.object({
      note: z.string().trim().max(limits.note, `must be at most ${limits.note} characters`).optional(),
    }),
    response: contractOut,
  }),
  subscribe: endpoint({
    method: 'POST',
    path: 'projects/subscrib/{projectId}',
    summary: "Follow a project's updates",
    tag,
    access: 'user',
    params: projectParams,
    response: ok,
  }),
  unsubscribe: endpoint({
    method: 'DELETE',
    path: 'projects/subscrib/{projectId}',
    summary: "Stop following a project's updates",
    tag,
    access: 'user',
    params: projectParams,
    response: ok,
  }),
  comments: endpoint({
    method: 'GET',
    path: 'projects/comment/{projectId}',
    summary: "A project's public questions and answers",
    tag,
    access: 'public',
    params: projectParams,
    response: list(comment),
  }),
  addComment: endpoint({
    method: 'POST',
    path: 'projects/comment/{projectId}',
    summary: 'Ask or answer on an open project',
    tag,
    access: 'user',
    params: projectParams,
    body: z.object({ body: text(limits.comment.min, limits.comment.max), parentId: id.optional() }),
    response: comment,
  }),
  search: endpoint({
    method: 'GET',
    path: 'projects',
    summary: 'Find Project: open projects by full text, filters and sort, paged',
    tag,
    access: 'public',
    query: searchQuery,
    response: paged(projectSummary),
  }),
  create: endpoint({
    method: 'POST',
    path: 'projects',
    summary: 'Create a project (a draft unless publish is true)',
    tag,
    access: 'user',
    body: projectInput,
    response: projectDetails,
  }),
  update: endpoint({
    method: 'PUT',
    path: 'projects/{projectId}',
    summary: 'Edit a draft or open project without proposals',
    tag,
    access: 'user',
    params: projectParams,
    body: projectInput,
    response: projectDetails,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: 'projects/{projectId}',
    summary: 'Delete a project that has no contract (otherwise cancel it)',
    tag,
    access: 'user',
    params: projectParams,
    response: ok,
  }),
  attachments: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/attachments',
    summary: "The project's files (its participants and, while open, freelancers)",
    tag,
    access: 'user',
    params: projectParams,
    response: list(attachment),
  }),
  upload: endpoint({
    method: 'POST',
    path: 'projects/{projectId}/uploadProjectFiles',
    summary:
      'Attach a file (multipart field file) to the project, to a proposal (proposalId) or to submitted work (installmentId)',
    tag,
    access: 'user',
    params: projectParams,
    query: z.object({
      proposalId: id.optional(),
      installmentId: id.optional(),
      kind: oneOf(['image', 'document'] as const).optional(),
    }),
    response: attachment,
  }),
  removeAttachment: endpoint({
    method: 'DELETE',
    path: 'projects/{projectId}/attachments/{fileId}',
    summary: 'Remove a file the caller attached, while it may still change',
    tag,
    access: 'user',
    params: z.object({ projectId: id, fileId: id }),
    response: ok,
  }),
  detailsForFreelancer: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/details-for-freelancer',
    summary: 'What a freelancer may see: the project, their own proposal, their contract',
    tag,
    access: 'user',
    params: projectParams,
    response: z.object({
      project: projectDetails,
      proposal: proposalOut.nullable(),
      contract: contractOut.nullable(),
      canPropose: z.boolean(),
    }),
  }),
  detailsForClient: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/details-for-client',
    summary: "The client's view: the project, proposals received, contract and activity",
    tag,
    access: 'user',
    params: projectParams,
    response: z.object({
      project: projectDetails,
      proposals: z.array(proposalOut),
      contract: contractOut.nullable(),
      activity: z.array(activity),
    }),
  }),
  addWish: endpoint({
    method: 'POST',
    path: 'projects/{projectId}/wishlist',
    summary: 'Save a project',
    tag,
    access: 'user',
    params: projectParams,
    response: ok,
  }),
  removeWish: endpoint({
    method: 'DELETE',
    path: 'projects/{projectId}/wishlist',
    summary: 'Unsave a project',
    tag,
    access: 'user',
    params: projectParams,
    response: ok,
  }),
  propose: endpoint({
    method: 'POST',
    path: 'projects/{projectId}/proposal',
    summary: 'Send a proposal (one per freelancer and project)',
    tag,
    access: 'user',
    params: projectParams,
    body: proposalInput,
    response: proposalOut,
  }),
  clientProposals: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/client-proposals',
    summary: "Proposals received on one of the caller's projects",
    tag,
    access: 'user',
    params: projectParams,
    query: z.object({ status: oneOf(proposalStates).optional(), ...page }),
    response: paged(proposalOut),
  }),
  activities: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/activities',
    summary: "The project's activity log (its participants)",
    tag,
    access: 'user',
    params: projectParams,
    query: z.object(page),
    response: paged(activity),
  }),
  updateState: endpoint({
    method: 'PUT',
    path: 'projects/{projectId}/updatestate/{state}',
    summary: "The client's moves: open (publish), cancelled, completed",
    tag,
    access: 'user',
    params: z.object({ projectId: id, state: oneOf(clientStates) }),
    response: z.object({ id: z.number(), status: z.enum(projectStates) }),
  }),
}
