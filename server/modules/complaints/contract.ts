import { z } from 'zod'
import { endpoint, recordId, shownName } from '#server/api/contract.ts'
import { complaintStates } from './machine.ts'
import {
  complaintLimits,
  decisionSchema,
  holdSchema,
  newComplaintSchema,
  replySchema,
  stateChangeSchema,
  subjectKinds,
} from './rules.ts'

// Complaints and support tickets (issue 18 item 1, docs/product.md §2 /ticketSupport, §7 "Admin/* …
// complaints"). The author's side under `complaints`, support's under `Admin/complaints`, the audit
// trail under `Admin/audit` (decision 213). A ticket that is not the caller's answers 404, as does
// one that does not exist; every Admin call answers 403 to anyone but a SuperAdmin.
const id = recordId
const tag = 'Complaints'
const adminTag = 'Admin'

export const complaintSubject = z.object({
  kind: z.enum(subjectKinds),
  id: z.number().nullable(),
  label: z.string(),
})
export type ComplaintSubject = z.output<typeof complaintSubject>
const person = z.object({ id: z.number(), name: shownName })

export const complaintSummary = z.object({
  id: z.number(),
  title: z.string(),
  state: z.enum(complaintStates),
  subject: complaintSubject,
  /** 'contact': it came through /contact-us. */
  source: z.enum(['app', 'contact']),
  author: z.object({ id: z.number().nullable(), name: shownName, email: z.string() }),
  assignee: person.nullable(),
  /** The money a dispute holds and when support is to have decided it (decision 313). */
  held: z
    .object({
      amountMinor: z.number(),
      currency: z.string(),
      decideBy: z.string().nullable(),
      overdue: z.boolean(),
    })
    .nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type ComplaintSummary = z.output<typeof complaintSummary>

export const complaintAttachment = z.object({
  id: z.number(),
  name: z.string(),
  size: z.number(),
  mime: z.string(),
})
export const complaintMessage = z.object({
  id: z.number(),
  fromSupport: z.boolean(),
  /** Written by the reader (support reads support's as its own). */
  mine: z.boolean(),
  authorName: shownName,
  body: z.string(),
  attachments: z.array(complaintAttachment),
  createdAt: z.string(),
})
export type ComplaintMessage = z.output<typeof complaintMessage>

export const auditEntry = z.object({
  id: z.number(),
  actor: person,
  action: z.string(),
  objectType: z.string(),
  objectId: z.number().nullable(),
  fromState: z.string().nullable(),
  toState: z.string().nullable(),
  reason: z.string().nullable(),
  /** The row's facts (amounts in minor units with their currency, counts, ids), worded by the reader's screen (decision 321). */
  params: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  at: z.string(),
})
export type AuditParams = Record<string, string | number>
export type AuditEntry = z.output<typeof auditEntry>

export const complaintDetail = complaintSummary.extend({
  messages: z.array(complaintMessage),
  /** Who reads it: its author, the other party it names (decision 232), or support. */
  viewer: z.enum(['author', 'party', 'support']),
  /** A complaint about a funded installment holds its money until an admin decides (decision 230). */
  dispute: z
    .object({
      status: z.enum(['held', 'decided']),
      heldMinor: z.number(),
      currency: z.string(),
      refundedMinor: z.number().nullable(),
      decisionNote: z.string().nullable(),
      /** When support is to have decided it (decision 313); null once decided. */
      decideBy: z.string().nullable(),
      installmentId: z.number(),
    })
    .nullable(),
  /** Support only: the installments of the ticket's contract whose money support may hold for it (decision 313). */
  holdable: z.array(
    z.object({ installmentId: z.number(), title: z.string(), heldMinor: z.number(), currency: z.string() }),
  ),
  /** Support only: whether the chat room of what the ticket is about can be read (decisions 233, 313). */
  canReadRoom: z.boolean(),
  /** Whether the caller may add a message now (closed tickets take none). */
  canReply: z.boolean(),
  /** Support only: the states the ticket may move to now, and its audit trail (oldest first). */
  nextStates: z.array(z.enum(complaintStates)),
  audit: z.array(auditEntry),
})
export type ComplaintDetail = z.output<typeof complaintDetail>

const page = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(10_000, 'is too large')
  .default(1)
const list = z.object({
  data: z.array(complaintSummary),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
})
const params = z.object({ complaintId: id })
export const queueQuery = z.object({
  state: z.enum(complaintStates, { error: 'is not a ticket state' }).optional(),
  /** `held`: only the disputes whose money is held, soonest deadline first (decision 313). */
  dispute: z.enum(['held'], { error: 'must be held' }).optional(),
  kind: z.enum(subjectKinds, { error: 'is not a complaint kind' }).optional(),
  page,
})
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'must be a date (YYYY-MM-DD)')
// Empty GET-form fields (the /admin/audit filters) mean "any".
const blank = (v: unknown) => (v === '' ? undefined : v)
export const auditQuery = z
  .object({
    objectType: z.preprocess(blank, z.string().max(40, 'is too long').optional()),
    objectId: z.preprocess(blank, id.optional()),
    actorId: z.preprocess(blank, id.optional()),
    action: z.preprocess(blank, z.string().max(40, 'is too long').optional()),
    from: z.preprocess(blank, day.optional()),
    to: z.preprocess(blank, day.optional()),
    page,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'must not be before from' })
export const auditFacets = z.object({
  actors: z.array(person),
  objectTypes: z.array(z.string()),
  actions: z.array(z.string()),
})

export const complaintsContract = {
  subjects: endpoint({
    method: 'GET',
    path: 'complaints/subjects',
    summary:
      'What the caller may complain about: their projects, contracts, installments, chat rooms and the people they worked with',
    tag,
    access: 'user',
    response: z.object({ data: z.array(complaintSubject) }),
  }),
  mine: endpoint({
    method: 'GET',
    path: 'complaints',
    summary: "The caller's tickets, newest first",
    tag,
    access: 'user',
    query: z.object({ page }),
    response: list,
  }),
  create: endpoint({
    method: 'POST',
    path: 'complaints',
    summary: `File a complaint (JSON, or multipart/form-data with up to ${complaintLimits.attachments} \`files\`); it starts open`,
    tag,
    access: 'user',
    body: newComplaintSchema,
    multipart: true,
    response: complaintDetail,
  }),
  get: endpoint({
    method: 'GET',
    path: 'complaints/{complaintId}',
    summary: "One of the caller's tickets with its conversation",
    tag,
    access: 'user',
    params,
    response: complaintDetail,
  }),
  reply: endpoint({
    method: 'POST',
    path: 'complaints/{complaintId}/messages',
    summary:
      'The author replies (JSON, or multipart with `files`); a reply to a ticket waiting on the user or resolved brings it back to support',
    tag,
    access: 'user',
    params,
    body: replySchema,
    multipart: true,
    response: complaintDetail,
  }),
  queue: endpoint({
    method: 'GET',
    path: 'Admin/complaints',
    summary:
      'SuperAdmin: the ticket queue, oldest activity first among open ones, filtered by state and kind',
    tag: adminTag,
    access: 'admin',
    query: queueQuery,
    response: list,
  }),
  adminGet: endpoint({
    method: 'GET',
    path: 'Admin/complaints/{complaintId}',
    summary: 'SuperAdmin: a ticket with its conversation, next states and audit trail',
    tag: adminTag,
    access: 'admin',
    params,
    response: complaintDetail,
  }),
  adminReply: endpoint({
    method: 'POST',
    path: 'Admin/complaints/{complaintId}/reply',
    summary: 'SuperAdmin: reply to the author (JSON, or multipart with `files`); the author is notified',
    tag: adminTag,
    access: 'admin',
    params,
    body: replySchema,
    multipart: true,
    response: complaintDetail,
  }),
  assign: endpoint({
    method: 'POST',
    path: 'Admin/complaints/{complaintId}/assign',
    summary: 'SuperAdmin: take the ticket (assign it to the caller); audited',
    tag: adminTag,
    access: 'admin',
    params,
    response: complaintDetail,
  }),
  changeState: endpoint({
    method: 'POST',
    path: 'Admin/complaints/{complaintId}/state',
    summary: 'SuperAdmin: move the ticket to another state with a reason; audited and notified',
    tag: adminTag,
    access: 'admin',
    params,
    body: stateChangeSchema,
    response: complaintDetail,
  }),
  decide: endpoint({
    method: 'POST',
    path: 'Admin/complaints/{complaintId}/decision',
    summary:
      "SuperAdmin: decide the dispute of a complaint holding an installment's money: release, refund or split (refundMinor back, the rest released), checked against what is held; with a reason, audited, both sides notified, the ticket resolved",
    tag: adminTag,
    access: 'admin',
    params,
    body: decisionSchema,
    response: complaintDetail,
  }),
  hold: endpoint({
    method: 'POST',
    path: 'Admin/complaints/{complaintId}/hold',
    summary:
      "SuperAdmin: hold the money of one of the ticket's contract's funded installments for the dispute, to decide it; audited, both sides notified",
    tag: adminTag,
    access: 'admin',
    params,
    body: holdSchema,
    response: complaintDetail,
  }),
  room: endpoint({
    method: 'GET',
    path: 'Admin/complaints/{complaintId}/room',
    summary:
      'SuperAdmin: read (only) the chat room a complaint is about, or the chat of the contract it concerns; every reading is audited',
    tag: adminTag,
    access: 'admin',
    params,
    response: z.object({
      roomId: z.number(),
      messages: z.array(
        z.object({
          id: z.number(),
          sender: shownName.nullable(),
          kind: z.enum(['text', 'system']),
          body: z.string(),
          event: z.string().nullable(),
          params: z.record(z.string(), z.union([z.string(), z.number()])),
          createdAt: z.string(),
        }),
      ),
    }),
  }),
  audit: endpoint({
    method: 'GET',
    path: 'Admin/audit',
    summary:
      'SuperAdmin: every admin action, newest first, filtered by object, actor, action and days (from and to included), with the values the filters can take',
    tag: adminTag,
    access: 'admin',
    query: auditQuery,
    response: z.object({
      data: z.array(auditEntry),
      page: z.number(),
      pageSize: z.number(),
      total: z.number(),
      facets: auditFacets,
    }),
  }),
}
