import { z } from 'zod'
import { shownName } from '#server/api/contract.ts'
import { paymentKinds, paymentStatuses } from '../rules.ts'

// What the profile endpoints answer.

const option = z.object({ id: z.number(), name: z.string() })
export const fileRef = z.object({
  id: z.number(),
  url: z.string(),
  name: z.string(),
  type: z.string(),
  size: z.number(),
  displayable: z.boolean(),
})
const money = z.object({ amountMinor: z.number(), currency: z.string() })
export const education = z.object({
  id: z.number(),
  school: z.string(),
  degree: z.string(),
  fieldOfStudy: z.string(),
  startYear: z.number().nullable(),
  endYear: z.number().nullable(),
  description: z.string(),
})
export const employment = z.object({
  id: z.number(),
  company: z.string(),
  role: z.string(),
  country: z.string().nullable(),
  countryName: z.string().nullable(),
  startMonth: z.string(),
  endMonth: z.string().nullable(),
  description: z.string(),
})
export const certification = z.object({
  id: z.number(),
  name: z.string(),
  issuer: z.string(),
  issuedMonth: z.string().nullable(),
  credentialUrl: z.string().nullable(),
})
export const portfolio = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  projectUrl: z.string().nullable(),
  completedMonth: z.string().nullable(),
  image: fileRef.nullable(),
  document: fileRef.nullable(),
})
export const language = z.object({ code: z.string(), name: z.string(), level: z.string() })
const completeness = z.object({ percent: z.number(), missing: z.array(z.string()) })
export const imageUrl = z.object({ imageUrl: z.string().nullable() })

const person = {
  userId: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  name: shownName,
  imageUrl: z.string().nullable(),
  /** False for TIFF and BPG, which browsers cannot show (docs/decisions/010-files.md): the default avatar is shown. */
  imageDisplayable: z.boolean(),
  memberSince: z.string(),
}

export const publicFreelancer = z.object({
  ...person,
  title: z.string(),
  overview: z.string(),
  description: z.string(),
  experienceLevel: z.string().nullable(),
  yearsOfExperience: z.number().nullable(),
  country: z.string().nullable(),
  countryName: z.string().nullable(),
  city: z.string().nullable(),
  availability: z.string().nullable(),
  hourlyRate: money.nullable(),
  category: option.nullable(),
  subcategories: z.array(option),
  skills: z.array(option),
  languages: z.array(language),
  educations: z.array(education),
  employmentHistory: z.array(employment),
  certifications: z.array(certification),
  portfolios: z.array(portfolio),
  /** The schedule of rates: a spreadsheet (xlsx or csv) the freelancer publishes with the hourly rate. */
  rateSheet: fileRef.nullable(),
  rating: z.object({ average: z.number(), count: z.number() }),
  /** A SuperAdmin checked the freelancer's identity document (decision 332). */
  verified: z.boolean(),
})
export const ownFreelancer = publicFreelancer.extend({ gender: z.string().nullable(), completeness })
export type PublicFreelancer = z.infer<typeof publicFreelancer>
export type OwnFreelancer = z.infer<typeof ownFreelancer>

export const publicClient = z.object({
  ...person,
  kind: z.enum(['individual', 'company']),
  companyName: z.string().nullable(),
  country: z.string().nullable(),
  countryName: z.string().nullable(),
  city: z.string().nullable(),
  industry: option.nullable(),
  website: z.string().nullable(),
  companySize: z.string().nullable(),
  foundedYear: z.number().nullable(),
  who: z.string(),
  what: z.string(),
  description: z.string(),
  category: option.nullable(),
  subcategories: z.array(option),
  /** A company whose registration a SuperAdmin checked (decision 332). */
  verified: z.boolean(),
  /** One of the client's payments went through: "Payment method verified" (decision 332). */
  paymentVerified: z.boolean(),
})
export const ownClient = publicClient.extend({ completeness })
export type PublicClient = z.infer<typeof publicClient>
export type OwnClient = z.infer<typeof ownClient>

export const paymentMethod = z.object({
  id: z.number(),
  kind: z.enum(paymentKinds),
  holderName: z.string(),
  /** Never the whole number or address: masked (docs/decisions/011-profiles.md). */
  masked: z.string(),
  bic: z.string().nullable(),
  bankName: z.string().nullable(),
  isDefault: z.boolean(),
  status: z.enum(paymentStatuses),
  /** a connected account (stripe_account) can be paid only once its gateway enables it (decision 333); other kinds: true */
  payoutsEnabled: z.boolean(),
  createdAt: z.string(),
})
export type PaymentMethod = z.infer<typeof paymentMethod>

export const searchHit = z.object({
  userId: z.number(),
  name: shownName,
  imageUrl: z.string().nullable(),
  imageDisplayable: z.boolean(),
  title: z.string(),
  overview: z.string(),
  country: z.string().nullable(),
  countryName: z.string().nullable(),
  experienceLevel: z.string().nullable(),
  availability: z.string().nullable(),
  hourlyRate: money.nullable(),
  rating: z.object({ average: z.number(), count: z.number() }),
  skills: z.array(option),
  /** A SuperAdmin checked the freelancer's identity document (decision 332). */
  verified: z.boolean(),
})
export type SearchHit = z.infer<typeof searchHit>
