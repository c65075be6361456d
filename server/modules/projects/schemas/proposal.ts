import { z } from 'zod'
import { budgetTypes, limits } from '../rules.ts'
import { proposalStates, projectStates } from '../machines.ts'
import {
  attachment,
  days,
  hours,
  person,
  plan,
  planOut,
  planMustAddUp,
  price,
  problem,
  writing,
} from './fields.ts'

const proposalFields = z.object({
  coverLetter: writing(limits.coverLetter.min, limits.coverLetter.max, problem('coverShort')),
  /** The price, or on an hourly project the rate per hour. */
  bidMinor: price(),
  durationDays: days,
  /** On an hourly project, the hours a week the freelancer offers, 1 to 80 (ignored on a fixed price). */
  weeklyHours: hours.optional(),
  /** Installments of a fixed price (an hourly proposal has none: it is paid by the week). */
  installments: plan,
})

/** A freelancer's proposal: the body of Send and Edit Proposal, and the schema of their form. */
export const proposalInput = proposalFields
export type ProposalInput = z.output<typeof proposalInput>

/** An hourly proposal offers hours a week and no installments (decision 323). */
function hourlyTerms(v: { weeklyHours?: unknown; installments?: unknown }, ctx: z.RefinementCtx) {
  if (v.weeklyHours === undefined)
    ctx.addIssue({ code: 'custom', path: ['weeklyHours'], message: problem('hours') })
  if (Array.isArray(v.installments) && v.installments.length)
    ctx.addIssue({ code: 'custom', path: ['installments'], message: problem('hourlyNoPlan') })
}

/**
 * The same schema where the project is known: on a fixed-price project the installments add up to
 * the bid; on an hourly one the proposal names its hours a week and has no installments (the
 * service checks both again with the project it reads).
 */
export const proposalInputFor = (budgetType: (typeof budgetTypes)[number] | undefined) =>
  budgetType === 'fixed'
    ? proposalFields.superRefine((v, ctx) => planMustAddUp(v.installments, v.bidMinor, ctx))
    : budgetType === 'hourly'
      ? proposalFields.superRefine(hourlyTerms)
      : proposalFields

export const proposalOut = z.object({
  id: z.number(),
  projectId: z.number(),
  projectTitle: z.string(),
  projectStatus: z.enum(projectStates),
  freelancer: person.extend({
    title: z.string().nullable(),
    rating: z.number(),
    ratingCount: z.number(),
    /** A SuperAdmin checked the freelancer's identity (decision 332). */
    verified: z.boolean(),
  }),
  status: z.enum(proposalStates),
  coverLetter: z.string(),
  bidMinor: z.number(),
  currency: z.string(),
  durationDays: z.number(),
  /** On an hourly project, the hours a week offered (null on a fixed price). */
  weeklyHours: z.number().nullable(),
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
  weeklyHours: z.number().nullable(),
  installments: planOut,
  createdAt: z.string(),
})
