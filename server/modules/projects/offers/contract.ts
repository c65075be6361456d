import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import { budgetTypes, currencies, limits } from '../rules.ts'
import { projectStates } from '../machines.ts'
import {
  choice,
  chosenId,
  days,
  hours,
  named,
  oneOf,
  page,
  paged,
  person,
  plan,
  planMustAddUp,
  planOut,
  price,
  problem,
  writing,
} from '../schemas/fields.ts'
import { declineInput } from '../invitations/contract.ts'

// Direct offers (issue 41 item 2, decision 342): a client offers one freelancer the work and its
// terms without a public posting; the freelancer's acceptance makes the contract, as a client's
// acceptance of a proposal does. One input schema serves the offer form and the API.

export const offerStates = ['pending', 'accepted', 'declined', 'withdrawn', 'expired'] as const
export type OfferState = (typeof offerStates)[number]

/** Days an offer waits for its answer unless the client says otherwise. */
export const OFFER_DAYS_DEFAULT = 7
export const OFFER_DAYS_MAX = 30

const offerDays = z
  .number({ error: problem('offerDays') })
  .int(problem('offerDays'))
  .min(1, problem('offerDays'))
  .max(OFFER_DAYS_MAX, problem('offerDays'))

/**
 * The client's offer. A fixed price's installments follow a proposal's rules (at most 20, adding up
 * to the price; none means one installment for the whole); an hourly offer names its rate and its
 * weekly hours, and installments left in the form's other group are ignored, as a project's are.
 */
export const offerInput = z
  .object({
    freelancerId: chosenId,
    title: writing(limits.title.min, limits.title.max, problem('titleShort')),
    description: writing(limits.description.min, limits.description.max, problem('descriptionShort')),
    subcategoryId: chosenId,
    budgetType: choice(budgetTypes),
    /** A fixed price's total, or the rate per hour. */
    budgetMinor: price(),
    currency: choice(currencies),
    /** How long the work takes, as a proposal says it. */
    durationDays: days,
    /** An hourly offer's weekly limit, 1 to 80 (ignored for a fixed price). */
    weeklyHours: hours.optional(),
    installments: plan,
    message: z.string().trim().max(limits.invitationMessage, problem('tooLong')).optional(),
    expiresInDays: offerDays.default(OFFER_DAYS_DEFAULT),
  })
  .superRefine((v, ctx) => {
    if (v.budgetType === 'fixed') planMustAddUp(v.installments, v.budgetMinor, ctx)
    if (v.budgetType === 'hourly' && v.weeklyHours === undefined)
      ctx.addIssue({ code: 'custom', path: ['weeklyHours'], message: problem('hours') })
  })
export type OfferInput = z.output<typeof offerInput>

export { declineInput }

export const offerOut = z.object({
  id: z.number(),
  projectId: z.number(),
  projectStatus: z.enum(projectStates),
  title: z.string(),
  description: z.string(),
  category: named.nullable(),
  subcategory: named.nullable(),
  budgetType: z.enum(budgetTypes),
  /** A fixed price's total, or the rate per hour. */
  budgetMinor: z.number(),
  currency: z.string(),
  durationDays: z.number().nullable(),
  /** An hourly offer's weekly limit (null for a fixed price). */
  weeklyHours: z.number().nullable(),
  installments: planOut,
  message: z.string().nullable(),
  /** `expired` once its time is up, even before the sweep wrote it. */
  status: z.enum(offerStates),
  declineReason: z.string().nullable(),
  client: person,
  freelancer: person,
  expiresAt: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The contract the acceptance made (null before). */
  contractId: z.number().nullable(),
})
export type OfferOut = z.output<typeof offerOut>

const tag = 'Offers'
const offerId = recordId
const listQuery = z.object({ status: oneOf(offerStates).optional(), ...page })

export const offersContract = {
  create: endpoint({
    method: 'POST',
    path: 'offers',
    summary:
      'A client offers a freelancer work and terms without a posting: a private project and a pending offer',
    tag,
    access: 'user',
    body: offerInput,
    response: offerOut,
  }),
  sent: endpoint({
    method: 'GET',
    path: 'offers/sent',
    summary: "The client's offers, newest first (filter by state)",
    tag,
    access: 'user',
    query: listQuery,
    response: paged(offerOut),
  }),
  received: endpoint({
    method: 'GET',
    path: 'offers/received',
    summary: "The freelancer's offers, newest first (filter by state)",
    tag,
    access: 'user',
    query: listQuery,
    response: paged(offerOut),
  }),
  show: endpoint({
    method: 'GET',
    path: 'offers/{offerId}',
    summary: 'One offer with its full terms (its client and its freelancer only)',
    tag,
    access: 'user',
    params: z.object({ offerId }),
    response: offerOut,
  }),
  accept: endpoint({
    method: 'POST',
    path: 'offers/{offerId}/accept',
    summary:
      'The freelancer accepts a pending offer before it expires: the contract starts with its terms, once',
    tag,
    access: 'user',
    params: z.object({ offerId }),
    response: offerOut,
  }),
  decline: endpoint({
    method: 'POST',
    path: 'offers/{offerId}/decline',
    summary: 'The freelancer declines a pending offer with a reason the client reads',
    tag,
    access: 'user',
    params: z.object({ offerId }),
    body: declineInput,
    response: offerOut,
  }),
  withdraw: endpoint({
    method: 'POST',
    path: 'offers/{offerId}/withdraw',
    summary: 'The client withdraws their offer while it is pending',
    tag,
    access: 'user',
    params: z.object({ offerId }),
    response: offerOut,
  }),
}
