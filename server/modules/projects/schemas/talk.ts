import { z } from 'zod'
import { limits } from '../rules.ts'
import { chosenId, person, problem, writing } from './fields.ts'

// Public questions and answers on a project, and the reviews both sides write after a contract.

/** A question or an answer (parentId: the question answered). */
export const commentInput = z.object({
  body: writing(limits.comment.min, limits.comment.max),
  parentId: chosenId.optional(),
})

/** A review of the other side of a completed contract. */
export const reviewInput = z.object({
  rating: z
    .number({ error: problem('rating') })
    .int(problem('rating'))
    .min(1, problem('rating'))
    .max(5, problem('rating')),
  body: writing(limits.review.min, limits.review.max),
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
