import { z } from 'zod'
import { endpoint, recordId, shownName } from '#server/api/contract.ts'
import { searchHit } from '../profiles/contract.ts'
import { auditEntry } from '../complaints/contract.ts'
import { currencies } from '../projects/rules.ts'
import { hiringStates } from './states.ts'
import { choice, chosenId, day, price, problem, today, writing } from '../projects/schemas/fields.ts'

// Hiring with Workneer's help (issue 41 item 5, decision 338): a client or a company asks support
// to find the freelancer; support proposes up to five active freelancers, each with a note.
// Requests are their author's alone (404 to anyone else); the queue is SuperAdmins' (decision 220).
const tag = 'Hiring help'
const adminTag = 'Admin'

export { hiringStates, liveStates } from './states.ts'

export const MAX_LIVE_REQUESTS = 3
export const MAX_PICKS = 5
const hiringProblem = (key: string) => `shortlist:hiring.errors.${key}`

/** A request as the client's form and the API take it: one amount, or a range up to `budgetMaxMinor`. */
export const hiringRequestInput = z
  .object({
    need: writing(20, 4000, problem('descriptionShort')),
    budgetMinMinor: price(),
    budgetMaxMinor: price().optional(),
    currency: choice(currencies),
    deadline: day.refine((v) => v >= today(), problem('deadlinePast')),
    projectId: chosenId.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.budgetMaxMinor !== undefined && v.budgetMaxMinor < v.budgetMinMinor)
      ctx.addIssue({ code: 'custom', path: ['budgetMaxMinor'], message: hiringProblem('range') })
  })
export type HiringRequestInput = z.output<typeof hiringRequestInput>

/** Support's proposal: up to five active freelancers, each once, each with a note for the client. */
export const proposalInput = z.object({
  freelancers: z
    .array(
      z.object({
        userId: chosenId,
        note: writing(1, 1000),
      }),
    )
    .min(1, hiringProblem('pickOne'))
    .max(MAX_PICKS, hiringProblem('tooMany'))
    .superRefine((rows, ctx) => {
      const seen = new Set<number>()
      rows.forEach((r, i) => {
        if (seen.has(r.userId))
          ctx.addIssue({ code: 'custom', path: [i, 'userId'], message: hiringProblem('twice') })
        seen.add(r.userId)
      })
    }),
})
export type ProposalInput = z.output<typeof proposalInput>

export const closeInput = z.object({ reason: writing(1, 1000).optional() })

const requestSummary = z.object({
  id: z.number(),
  need: z.string(),
  budgetMinMinor: z.number(),
  budgetMaxMinor: z.number(),
  currency: z.string(),
  deadline: z.string(),
  state: z.enum(hiringStates),
  project: z.object({ id: z.number(), title: z.string() }).nullable(),
  picks: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
const pick = z.object({ freelancer: searchHit, note: z.string() })
export const requestDetail = requestSummary.extend({ proposed: z.array(pick) })
export type HiringRequest = z.output<typeof requestDetail>

const adminSummary = requestSummary.extend({
  client: z.object({ id: z.number(), name: shownName }),
  assignee: z.object({ id: z.number(), name: shownName }).nullable(),
})
const candidate = z.object({ id: z.number(), name: shownName, title: z.string().nullable() })
export const adminDetail = adminSummary.extend({
  proposed: z.array(z.object({ freelancer: candidate, note: z.string() })),
  /** Active freelancers whose name holds the words of `q` (the newest when `q` is empty). */
  candidates: z.array(candidate),
  audit: z.array(auditEntry),
})
export type AdminHiringRequest = z.output<typeof adminDetail>

const params = z.object({ requestId: recordId })
const paged = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), page: z.number(), pageSize: z.number(), total: z.number() })
const pageQuery = {
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
}

export const hiringContract = {
  create: endpoint({
    method: 'POST',
    path: 'hiring/requests',
    summary:
      'A client or a company asks support to find the freelancer (at most 3 live requests: 409); the project, if named, must be one of theirs',
    tag,
    access: 'user',
    body: hiringRequestInput,
    response: requestDetail,
  }),
  list: endpoint({
    method: 'GET',
    path: 'hiring/requests',
    summary: "The caller's own requests, newest first",
    tag,
    access: 'user',
    query: z.object(pageQuery),
    response: paged(requestSummary),
  }),
  get: endpoint({
    method: 'GET',
    path: 'hiring/requests/{requestId}',
    summary: "One of the caller's requests with the freelancers support proposed and their notes",
    tag,
    access: 'user',
    params,
    response: requestDetail,
  }),
  cancel: endpoint({
    method: 'POST',
    path: 'hiring/requests/{requestId}/cancel',
    summary: 'The client cancels a live request (a done or cancelled one: 409)',
    tag,
    access: 'user',
    params,
    response: requestDetail,
  }),
  done: endpoint({
    method: 'POST',
    path: 'hiring/requests/{requestId}/done',
    summary: 'The client closes a live request as done',
    tag,
    access: 'user',
    params,
    response: requestDetail,
  }),
  queue: endpoint({
    method: 'GET',
    path: 'Admin/hiring-requests',
    summary: 'SuperAdmin: the requests, oldest first among live ones, filtered by state',
    tag: adminTag,
    access: 'admin',
    query: z.object({ state: z.enum(hiringStates).optional(), ...pageQuery }),
    response: paged(adminSummary),
  }),
  adminGet: endpoint({
    method: 'GET',
    path: 'Admin/hiring-requests/{requestId}',
    summary: 'SuperAdmin: a request with its proposal, its audit trail and active freelancers matching `q`',
    tag: adminTag,
    access: 'admin',
    params,
    query: z.object({ q: z.string().trim().max(100).optional() }),
    response: adminDetail,
  }),
  claim: endpoint({
    method: 'POST',
    path: 'Admin/hiring-requests/{requestId}/claim',
    summary: 'SuperAdmin: take the request (assign it to the caller); audited',
    tag: adminTag,
    access: 'admin',
    params,
    response: adminDetail,
  }),
  propose: endpoint({
    method: 'POST',
    path: 'Admin/hiring-requests/{requestId}/proposal',
    summary:
      'SuperAdmin: propose up to five active freelancers with notes (replacing an earlier proposal); the client is notified; audited; a done or cancelled request: 409',
    tag: adminTag,
    access: 'admin',
    params,
    body: proposalInput,
    response: adminDetail,
  }),
  close: endpoint({
    method: 'POST',
    path: 'Admin/hiring-requests/{requestId}/close',
    summary: 'SuperAdmin: close a live request as done, with an optional reason; audited',
    tag: adminTag,
    access: 'admin',
    params,
    body: closeInput,
    response: adminDetail,
  }),
}
