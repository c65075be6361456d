import { z } from 'zod'
import { endpoint } from '#server/api/contract.ts'
import { projectStates } from '../machines.ts'
import { id, oneOf, page, paged, projectParams } from '../schemas/fields.ts'
import { projectDetails } from '../schemas/project.ts'
import { REASON_MAX, reviewRuleKinds } from './limits.ts'

// Review before publication (issue 41 item 6, decision 339), for admins (SuperAdmins, decision
// 220): the rule, the queue and the two decisions. The client's resubmission is the usual publish
// (projects/{projectId}/updatestate/open, or saving with publish: true).
const tag = 'Project review'
const access = 'admin' as const

/** The rule: one schema for the admin page's form and the API. The form's list of ids arrives as repeated fields. */
export const reviewRuleInput = z.object({
  kind: oneOf(reviewRuleKinds),
  categoryIds: z
    .preprocess(
      (v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v]),
      z.array(id).max(500, 'must list at most 500 categories'),
    )
    .default([]),
})
export const returnInput = z.object({
  reason: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'must not be empty')
    .max(REASON_MAX, `must be at most ${REASON_MAX} characters`),
})
const ruleOut = z.object({
  kind: z.enum(reviewRuleKinds),
  categoryIds: z.array(z.number()),
  updatedAt: z.string().nullable(),
})
const decided = z.object({ id: z.number(), status: z.enum(projectStates) })

export const projectReviewContract = {
  rule: endpoint({
    method: 'GET',
    path: 'Admin/project-review/rule',
    summary:
      'The review rule: none, a client’s first project, every project, or projects in these categories',
    tag,
    access,
    response: ruleOut,
  }),
  setRule: endpoint({
    method: 'PUT',
    path: 'Admin/project-review/rule',
    summary: 'Set the review rule (categoryIds for the kind categories)',
    tag,
    access,
    body: reviewRuleInput,
    response: ruleOut,
  }),
  queue: endpoint({
    method: 'GET',
    path: 'Admin/project-review',
    summary: 'Projects waiting for review, oldest first, with their content',
    tag,
    access,
    query: z.object(page),
    response: paged(projectDetails.extend({ submittedAt: z.string() })),
  }),
  approve: endpoint({
    method: 'POST',
    path: 'Admin/project-review/{projectId}/approve',
    summary: 'Approve a project in review: it opens, as a publish does; 409 once decided',
    tag,
    access,
    params: projectParams,
    response: decided,
  }),
  return: endpoint({
    method: 'POST',
    path: 'Admin/project-review/{projectId}/return',
    summary: 'Return a project in review to its client with a reason; 409 once decided',
    tag,
    access,
    params: z.object({ projectId: id }),
    body: returnInput,
    response: decided,
  }),
}
