import { z } from 'zod'
import { budgetTypes, limits } from '../rules.ts'
import { proposalStates, projectStates } from '../machines.ts'
import { attachment, days, person, plan, planOut, planMustAddUp, price, problem, writing } from './fields.ts'

const proposalFields = z.object({
  coverLetter: writing(limits.coverLetter.min, limits.coverLetter.max, problem('coverShort')),
  bidMinor: price(),
  durationDays: days,
  installments: plan,
})

/** A freelancer's proposal: the body of Send and Edit Proposal, and the schema of their form. */
export const proposalInput = proposalFields
export type ProposalInput = z.output<typeof proposalInput>

/**
 * The same schema where the project is known: on a fixed-price project the installments add up to
 * the bid (the service checks it again with the project it reads).
 */
export const proposalInputFor = (budgetType: (typeof budgetTypes)[number] | undefined) =>
  budgetType === 'fixed'
    ? proposalFields.superRefine((v, ctx) => planMustAddUp(v.installments, v.bidMinor, ctx))
    : proposalFields

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

export const proposalRevision = z.object({
  revision: z.number(),
  coverLetter: z.string(),
  bidMinor: z.number(),
  durationDays: z.number(),
  installments: planOut,
  createdAt: z.string(),
})
