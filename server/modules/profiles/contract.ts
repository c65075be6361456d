import { z } from 'zod'
import { endpoint, recordId, shownName } from '../../api/contract.ts'
import {
  availabilities,
  companySizes,
  currencies,
  emailPattern,
  experienceLevels,
  genders,
  isValidIban,
  languageLevels,
  limits,
  paymentKinds,
  paymentStatuses,
  searchSorts,
  stripeAccountPattern,
} from './rules.ts'

// Profiles of SPEC §7: freelancers/profile/..., clients/profile/..., companies/profile/..., the
// public views, profile images, freelancer payment methods and Find Freelancers' search.
// Messages name the rule; the 400 names the field (server/api/errors.ts).

const id = recordId
const text = (max: number) =>
  z.string({ error: 'is required' }).trim().max(max, `must be at most ${max} characters`)
const required = (max: number) => text(max).min(1, 'is required')
const optionalText = (max: number) => text(max).optional().nullable()
const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` })
const code2 = z
  .string({ error: 'is required' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'must be a two-letter country code')
const languageCode = z
  .string({ error: 'is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,3}$/, 'must be a language code')
const month = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month (YYYY-MM)')
const year = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1950, 'must be 1950 or later')
  .max(2100, 'must be 2100 or earlier')
const httpUrl = z
  .string()
  .trim()
  .max(limits.url, `must be at most ${limits.url} characters`)
  .regex(/^https?:\/\/[^\s]+$/i, 'must be an http(s) URL')
const ids = (max: number) => z.array(id).max(max, `may list at most ${max}`)

// ---- shapes that come back ------------------------------------------------------------------

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
const imageUrl = z.object({ imageUrl: z.string().nullable() })

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
})
export type SearchHit = z.infer<typeof searchHit>

// ---- what goes in ---------------------------------------------------------------------------

export const bodies = {
  description: z.object({ description: text(limits.description) }),
  title: z.object({ title: required(limits.title) }),
  titleOverview: z.object({ title: required(limits.title), overview: text(limits.overview) }),
  experienceLevel: z.object({ experienceLevel: oneOf(experienceLevels) }),
  yearsOfExperience: z.object({
    yearsOfExperience: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be 0 or more')
      .max(limits.years, `must be at most ${limits.years}`),
  }),
  country: z.object({ country: code2, city: optionalText(limits.city) }),
  availability: z.object({ availability: oneOf(availabilities) }),
  hourlyRate: z.object({
    amountMinor: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number of cents')
      .min(limits.rateMin, 'must be at least 1.00')
      .max(limits.rateMax, 'must be at most 10000.00'),
    currency: oneOf(currencies),
  }),
  language: z.object({ code: languageCode, level: oneOf(languageLevels) }),
  languageLevel: z.object({ level: oneOf(languageLevels) }),
  categorization: z.object({
    categoryId: id,
    subcategoryIds: ids(limits.subcategories).default([]),
    skillIds: ids(limits.skills).default([]),
  }),
  gender: z.object({ gender: oneOf(genders) }),
  education: z
    .object({
      school: required(limits.name),
      degree: required(limits.name),
      fieldOfStudy: text(limits.name).default(''),
      startYear: year.optional().nullable(),
      endYear: year.optional().nullable(),
      description: text(limits.longText).default(''),
    })
    .refine((v) => !v.startYear || !v.endYear || v.endYear >= v.startYear, {
      path: ['endYear'],
      message: 'must not be before the start',
    }),
  employment: z
    .object({
      company: required(limits.name),
      role: required(limits.name),
      country: code2.optional().nullable(),
      startMonth: month,
      endMonth: month.optional().nullable(),
      description: text(limits.longText).default(''),
    })
    .refine((v) => !v.endMonth || v.endMonth >= v.startMonth, {
      path: ['endMonth'],
      message: 'must not be before the start',
    }),
  certification: z.object({
    name: required(limits.name),
    issuer: required(limits.name),
    issuedMonth: month.optional().nullable(),
    credentialUrl: httpUrl.optional().nullable(),
  }),
  portfolio: z.object({
    title: required(limits.name),
    description: text(limits.longText).default(''),
    projectUrl: httpUrl.optional().nullable(),
    completedMonth: month.optional().nullable(),
  }),
  clientBasics: z.object({
    country: code2,
    city: optionalText(limits.city),
    industryId: id.optional().nullable(),
  }),
  companyBasics: z.object({
    country: code2,
    city: optionalText(limits.city),
    industryId: id.optional().nullable(),
    website: httpUrl.optional().nullable(),
    companySize: oneOf(companySizes).optional().nullable(),
    foundedYear: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1800, 'must be 1800 or later')
      .max(2100, 'must be 2100 or earlier')
      .optional()
      .nullable(),
  }),
  clientText: z.object({ text: text(limits.longText) }),
  /** The profile editor's "rate and availability" and "personal details" sections in one call each: what is left out stays as it is. */
  details: z
    .object({
      experienceLevel: oneOf(experienceLevels).optional(),
      yearsOfExperience: z.coerce
        .number({ error: 'must be a number' })
        .int('must be a whole number')
        .min(0, 'must be 0 or more')
        .max(limits.years, `must be at most ${limits.years}`)
        .optional(),
      availability: oneOf(availabilities).optional(),
      amountMinor: z.coerce
        .number({ error: 'must be a number' })
        .int('must be a whole number of cents')
        .min(limits.rateMin, 'must be at least 1.00')
        .max(limits.rateMax, 'must be at most 10000.00')
        .optional(),
      currency: oneOf(currencies).optional(),
      country: code2.optional(),
      city: optionalText(limits.city),
      gender: oneOf(genders).optional(),
    })
    .refine((v) => (v.amountMinor === undefined) === (v.currency === undefined), {
      path: ['currency'],
      message: 'goes with amountMinor: give both or neither',
    })
    .refine((v) => v.city === undefined || v.country !== undefined, {
      path: ['country'],
      message: 'is required with a city',
    }),
  /** A client's or company's "about" section: who, what and the description together. */
  about: z.object({
    who: text(limits.longText),
    what: text(limits.longText),
    description: text(limits.description),
  }),
  clientDescription: z.object({ description: text(limits.description) }),
  clientCategorization: z.object({ categoryId: id, subcategoryIds: ids(limits.subcategories).default([]) }),
}

const holderName = required(limits.name)
const ibanField = z
  .string({ error: 'is required' })
  .trim()
  .max(limits.iban, `must be at most ${limits.iban} characters`)
  .refine(isValidIban, 'is not a valid IBAN (its check digits do not match)')
const bicField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'must be a BIC of 8 or 11 letters and digits')
const payEmail = z
  .string({ error: 'is required' })
  .trim()
  .toLowerCase()
  .max(limits.email, `must be at most ${limits.email} characters`)
  .regex(emailPattern, 'must be a valid email address')

/** A Stripe connected account's id, as Stripe Connect gives it (decision 196). */
const stripeAccountField = z
  .string({ error: 'is required' })
  .trim()
  .regex(stripeAccountPattern, 'must be a Stripe account id (acct_ followed by letters and digits)')

export const paymentBodies = {
  add: z.discriminatedUnion(
    'kind',
    [
      z.object({
        kind: z.literal('bank'),
        holderName,
        iban: ibanField,
        bic: bicField.optional().nullable(),
        bankName: optionalText(limits.name),
        makeDefault: z.boolean().optional(),
      }),
      z.object({
        kind: z.literal('paypal'),
        holderName,
        email: payEmail,
        makeDefault: z.boolean().optional(),
      }),
      z.object({
        kind: z.literal('stripe_account'),
        holderName,
        stripeAccount: stripeAccountField,
        makeDefault: z.boolean().optional(),
      }),
    ],
    { error: 'must be bank, paypal or stripe_account' },
  ),
  /** The IBAN, address or account may be left out to keep the stored one (the UI never has it unmasked). */
  update: z.object({
    holderName,
    iban: ibanField.optional(),
    bic: bicField.optional().nullable(),
    bankName: optionalText(limits.name),
    email: payEmail.optional(),
    stripeAccount: stripeAccountField.optional(),
  }),
  status: z.object({
    status: oneOf(paymentStatuses).optional(),
    isDefault: z.literal(true, { error: 'may only be true: choose the new default' }).optional(),
  }),
}

const rateQuery = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number of cents')
  .min(0, 'must be 0 or more')
  .max(limits.rateMax, 'is too large')
export const searchQuery = z
  .object({
    q: z.string().trim().max(limits.searchTerm, `must be at most ${limits.searchTerm} characters`).optional(),
    categoryId: id.optional(),
    subcategoryId: id.optional(),
    skills: z
      .preprocess(
        (v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]),
        z.array(id).max(limits.skills, `may list at most ${limits.skills}`),
      )
      .optional(),
    country: code2.optional(),
    minRate: rateQuery.optional(),
    maxRate: rateQuery.optional(),
    currency: oneOf(currencies).optional(),
    experienceLevel: oneOf(experienceLevels).optional(),
    availability: oneOf(availabilities).optional(),
    language: languageCode.optional(),
    minRating: z.coerce
      .number({ error: 'must be a number' })
      .min(0, 'must be between 0 and 5')
      .max(5, 'must be between 0 and 5')
      .optional(),
    sort: oneOf(searchSorts).default('relevance'),
    page: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .max(10_000, 'is too large')
      .default(1),
    pageSize: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .max(limits.pageSize, `must be at most ${limits.pageSize}`)
      .default(20),
  })
  .refine((v) => v.minRate === undefined || v.maxRate === undefined || v.maxRate >= v.minRate, {
    path: ['maxRate'],
    message: 'must not be below the minimum',
  })
export type SearchQuery = z.output<typeof searchQuery>

// ---- endpoints ------------------------------------------------------------------------------

const ok = z.object({ message: z.string() })
const list = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) })
const F = 'Freelancer profile'
const C = 'Client profile'
const K = 'Company profile'
const P = 'Payment methods'
const own = <B extends z.ZodType>(
  path: string,
  summary: string,
  body: B,
  tag = F,
  method: 'PUT' | 'POST' = 'PUT',
) => endpoint({ method, path, summary, tag, access: 'user', body, response: ownFreelancer })
const item = z.object({ id })

export const profilesContract = {
  // Freelancer, the owner's side.
  freelancerMine: endpoint({
    method: 'GET',
    path: 'freelancers/profile',
    summary: "The caller's freelancer profile, every section, with its completeness",
    tag: F,
    access: 'user',
    response: ownFreelancer,
  }),
  freelancerDescription: own('freelancers/profile/description', 'Set the description', bodies.description),
  freelancerTitle: own('freelancers/profile/title', 'Set the professional title', bodies.title),
  freelancerTitleOverview: own(
    'freelancers/profile/title-overview',
    'Set the title and the overview',
    bodies.titleOverview,
  ),
  freelancerExperienceLevel: own(
    'freelancers/profile/experience-level',
    'Set the experience level',
    bodies.experienceLevel,
  ),
  freelancerYears: own(
    'freelancers/profile/years-of-experience',
    'Set the years of experience',
    bodies.yearsOfExperience,
  ),
  freelancerCountry: own('freelancers/profile/country', 'Set the country and city', bodies.country),
  freelancerAvailability: own(
    'freelancers/profile/availability',
    'Set the availability',
    bodies.availability,
  ),
  freelancerHourlyRate: own(
    'freelancers/profile/hourly-rate',
    'Set the hourly rate (minor units with a currency)',
    bodies.hourlyRate,
  ),
  freelancerCategorization: own(
    'freelancers/profile/categorization',
    'Set the category, subcategories and skills',
    bodies.categorization,
  ),
  freelancerGender: own('freelancers/profile/gender', 'Set the gender (never shown publicly)', bodies.gender),
  freelancerDetails: own(
    'freelancers/profile/details',
    'Set any of experience level, years, availability, hourly rate, country and city, and gender in one change (the fields left out stay as they are)',
    bodies.details,
  ),
  languageAdd: own(
    'freelancers/profile/languages',
    'Add a language with its level',
    bodies.language,
    F,
    'POST',
  ),
  languageUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/profile/languages/{code}',
    summary: 'Change the level of a language',
    tag: F,
    access: 'user',
    params: z.object({ code: languageCode }),
    body: bodies.languageLevel,
    response: ownFreelancer,
  }),
  languageDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/languages/{code}',
    summary: 'Remove a language',
    tag: F,
    access: 'user',
    params: z.object({ code: languageCode }),
    response: ownFreelancer,
  }),
  educationAdd: own('freelancers/profile/educations', 'Add an education', bodies.education, F, 'POST'),
  educationUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/profile/educations/{id}',
    summary: 'Change an education',
    tag: F,
    access: 'user',
    params: item,
    body: bodies.education,
    response: ownFreelancer,
  }),
  educationDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/educations/{id}',
    summary: 'Remove an education',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  employmentAdd: own(
    'freelancers/profile/employment-history',
    'Add a position to the employment history',
    bodies.employment,
    F,
    'POST',
  ),
  employmentUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/profile/employment-history/{id}',
    summary: 'Change a position',
    tag: F,
    access: 'user',
    params: item,
    body: bodies.employment,
    response: ownFreelancer,
  }),
  employmentDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/employment-history/{id}',
    summary: 'Remove a position',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  certificationAdd: own(
    'freelancers/profile/certifications',
    'Add a certification',
    bodies.certification,
    F,
    'POST',
  ),
  certificationUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/profile/certifications/{id}',
    summary: 'Change a certification',
    tag: F,
    access: 'user',
    params: item,
    body: bodies.certification,
    response: ownFreelancer,
  }),
  certificationDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/certifications/{id}',
    summary: 'Remove a certification',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  portfolioAdd: own(
    'freelancers/profile/portfolios',
    'Add a portfolio item (its image and file are uploaded to it afterwards)',
    bodies.portfolio,
    F,
    'POST',
  ),
  portfolioUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/profile/portfolios/{id}',
    summary: 'Change a portfolio item',
    tag: F,
    access: 'user',
    params: item,
    body: bodies.portfolio,
    response: ownFreelancer,
  }),
  portfolioDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/portfolios/{id}',
    summary: 'Remove a portfolio item with its files',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  portfolioImage: endpoint({
    method: 'POST',
    path: 'freelancers/profile/portfolios/{id}/image',
    summary: 'Upload the picture of a portfolio item (multipart field "file"; SPEC §5 image rules)',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  portfolioFile: endpoint({
    method: 'POST',
    path: 'freelancers/profile/portfolios/{id}/file',
    summary: 'Upload a document for a portfolio item (multipart field "file": pdf, drawings, spreadsheets…)',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  rateSheetUpload: endpoint({
    method: 'POST',
    path: 'freelancers/profile/rate-sheet',
    summary:
      'Upload the schedule of rates (multipart field "file"; SPEC §5 spreadsheet rules: xlsx or csv), replacing the previous one',
    tag: F,
    access: 'user',
    response: ownFreelancer,
  }),
  rateSheetDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/rate-sheet',
    summary: 'Remove the schedule of rates',
    tag: F,
    access: 'user',
    response: ownFreelancer,
  }),
  freelancerImageUpload: endpoint({
    method: 'POST',
    path: 'freelancers/profile/image',
    summary: 'Upload the freelancer\'s profile image (multipart field "file"); the top bar shows it at once',
    tag: F,
    access: 'user',
    response: imageUrl,
  }),
  freelancerImage: endpoint({
    method: 'GET',
    path: 'freelancers/profile/image',
    summary: "The freelancer's profile image URL",
    tag: F,
    access: 'user',
    response: imageUrl,
  }),
  freelancerImageDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/image',
    summary: 'Remove the profile image',
    tag: F,
    access: 'user',
    response: imageUrl,
  }),

  // Individual clients.
  clientMine: endpoint({
    method: 'GET',
    path: 'clients/profile',
    summary: "The caller's individual-client profile",
    tag: C,
    access: 'user',
    response: ownClient,
  }),
  clientBasics: endpoint({
    method: 'PUT',
    path: 'clients/profile/basic-details',
    summary: 'Set country, city and industry',
    tag: C,
    access: 'user',
    body: bodies.clientBasics,
    response: ownClient,
  }),
  clientWho: endpoint({
    method: 'PUT',
    path: 'clients/profile/who-i-am',
    summary: 'Set "who I am"',
    tag: C,
    access: 'user',
    body: bodies.clientText,
    response: ownClient,
  }),
  clientWhat: endpoint({
    method: 'PUT',
    path: 'clients/profile/what-do-I-do',
    summary: 'Set "what do I do"',
    tag: C,
    access: 'user',
    body: bodies.clientText,
    response: ownClient,
  }),
  clientDescription: endpoint({
    method: 'PUT',
    path: 'clients/profile/description',
    summary: 'Set the description',
    tag: C,
    access: 'user',
    body: bodies.clientDescription,
    response: ownClient,
  }),
  clientAbout: endpoint({
    method: 'PUT',
    path: 'clients/profile/about',
    summary: 'Set "who I am", "what do I do" and the description in one change',
    tag: C,
    access: 'user',
    body: bodies.about,
    response: ownClient,
  }),
  clientCategorization: endpoint({
    method: 'PUT',
    path: 'clients/profile/categorization',
    summary: 'Set the areas of interest',
    tag: C,
    access: 'user',
    body: bodies.clientCategorization,
    response: ownClient,
  }),
  clientImageUpload: endpoint({
    method: 'POST',
    path: 'clients/profile/image',
    summary: 'Upload the individual client\'s profile image (multipart field "file")',
    tag: C,
    access: 'user',
    response: imageUrl,
  }),
  clientImage: endpoint({
    method: 'GET',
    path: 'clients/profile/image-url',
    summary: "The individual client's profile image URL",
    tag: C,
    access: 'user',
    response: imageUrl,
  }),
  clientPublic: endpoint({
    method: 'GET',
    path: 'clients/{id}/profile',
    summary: "An individual client's public profile",
    tag: C,
    access: 'public',
    params: item,
    response: publicClient,
  }),
  clientPublicBasics: endpoint({
    method: 'GET',
    path: 'clients/{id}/profile/basic-details',
    summary: "An individual client's public profile (basic details and sections)",
    tag: C,
    access: 'public',
    params: item,
    response: publicClient,
  }),
  clientPublicImage: endpoint({
    method: 'GET',
    path: 'clients/{id}/profile/image-url',
    summary: "An individual client's profile image URL",
    tag: C,
    access: 'public',
    params: item,
    response: imageUrl,
  }),

  // Companies.
  companyMine: endpoint({
    method: 'GET',
    path: 'companies/profile',
    summary: "The caller's company profile",
    tag: K,
    access: 'user',
    response: ownClient,
  }),
  companyBasics: endpoint({
    method: 'PUT',
    path: 'companies/profile/basic-details',
    summary: 'Set country, city, industry, website, size and founding year',
    tag: K,
    access: 'user',
    body: bodies.companyBasics,
    response: ownClient,
  }),
  companyWho: endpoint({
    method: 'PUT',
    path: 'companies/profile/who-are-we',
    summary: 'Set "who are we"',
    tag: K,
    access: 'user',
    body: bodies.clientText,
    response: ownClient,
  }),
  companyWhat: endpoint({
    method: 'PUT',
    path: 'companies/profile/what-do-we-do',
    summary: 'Set "what do we do"',
    tag: K,
    access: 'user',
    body: bodies.clientText,
    response: ownClient,
  }),
  companyDescription: endpoint({
    method: 'PUT',
    path: 'companies/profile/description',
    summary: 'Set the description',
    tag: K,
    access: 'user',
    body: bodies.clientDescription,
    response: ownClient,
  }),
  companyAbout: endpoint({
    method: 'PUT',
    path: 'companies/profile/about',
    summary: 'Set "who are we", "what do we do" and the description in one change',
    tag: K,
    access: 'user',
    body: bodies.about,
    response: ownClient,
  }),
  companyImageUpload: endpoint({
    method: 'POST',
    path: 'companies/profile/image',
    summary: 'Upload the company logo or picture (multipart field "file")',
    tag: K,
    access: 'user',
    response: imageUrl,
  }),
  companyImage: endpoint({
    method: 'GET',
    path: 'companies/profile/image-url',
    summary: "The company's profile image URL",
    tag: K,
    access: 'user',
    response: imageUrl,
  }),
  companyPublic: endpoint({
    method: 'GET',
    path: 'companies/{id}/profile/basic-details',
    summary: "A company's public profile",
    tag: K,
    access: 'public',
    params: item,
    response: publicClient,
  }),
  companyPublicImage: endpoint({
    method: 'GET',
    path: 'companies/{id}/profile/image-url',
    summary: "A company's profile image URL",
    tag: K,
    access: 'public',
    params: item,
    response: imageUrl,
  }),

  // Freelancer payment methods (the owner only).
  paymentAdd: endpoint({
    method: 'POST',
    path: 'freelancers/AddFreelancerPaymentMethod',
    summary:
      'Add a bank account (IBAN checked), a PayPal address or a Stripe connected account (acct_…); the first becomes the default',
    tag: P,
    access: 'user',
    body: paymentBodies.add,
    response: paymentMethod,
  }),
  paymentList: endpoint({
    method: 'GET',
    path: 'freelancers/{id}/GetAllPaymentMethodsForFreelancer',
    summary: "The freelancer's payment methods, masked (only the freelancer may ask)",
    tag: P,
    access: 'user',
    params: item,
    response: list(paymentMethod),
  }),
  paymentDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/DeletePaymentMethod/{id}',
    summary: 'Remove a payment method; another active one becomes the default',
    tag: P,
    access: 'user',
    params: item,
    response: ok,
  }),
  paymentUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/UpdatePaymentMethod/{id}',
    summary: "Change a payment method's details",
    tag: P,
    access: 'user',
    params: item,
    body: paymentBodies.update,
    response: paymentMethod,
  }),
  paymentStatus: endpoint({
    method: 'PUT',
    path: 'freelancers/UpdatePaymentMethodStatus/{id}',
    summary: 'Make a payment method the default, or switch it active or inactive',
    tag: P,
    access: 'user',
    params: item,
    body: paymentBodies.status,
    response: list(paymentMethod),
  }),

  // Find Freelancers (clients and companies).
  search: endpoint({
    method: 'GET',
    path: 'freelancers/search',
    summary: 'Full-text search over title, overview and skills, with filters, sorting and paging',
    tag: 'Find Freelancers',
    access: 'user',
    query: searchQuery,
    response: z.object({
      data: z.array(searchHit),
      total: z.number(),
      capped: z.boolean().describe('true when there are more matches than total (the count stops at 1,000)'),
      page: z.number(),
      pageSize: z.number(),
      pages: z.number(),
    }),
  }),
  suggestions: endpoint({
    method: 'GET',
    path: 'freelancers/suggestions',
    summary: "Up to eight freelancers for the top bar's search suggestions",
    tag: 'Find Freelancers',
    access: 'user',
    query: z.object({
      q: z
        .string({ error: 'is required' })
        .trim()
        .min(1, 'must not be empty')
        .max(limits.searchTerm, `must be at most ${limits.searchTerm} characters`),
    }),
    response: list(z.object({ userId: z.number(), name: shownName, title: z.string() })),
  }),

  searchFacets: endpoint({
    method: 'GET',
    path: 'freelancers/search/facets',
    summary:
      "The countries and languages that listed freelancers have, named in the caller's language, for the search filters",
    tag: 'Find Freelancers',
    access: 'user',
    response: z.object({
      countries: z.array(z.object({ code: z.string(), name: z.string() })),
      languages: z.array(z.object({ code: z.string(), name: z.string() })),
    }),
  }),

  // Freelancer, public views (after the owner's paths, which they would otherwise shadow).
  freelancerPublic: endpoint({
    method: 'GET',
    path: 'freelancers/{id}/profile',
    summary: "A freelancer's public profile, every public section",
    tag: F,
    access: 'public',
    params: item,
    response: publicFreelancer,
  }),
  freelancerPublicImage: endpoint({
    method: 'GET',
    path: 'freelancers/{id}/profile/image',
    summary: "A freelancer's profile image URL",
    tag: F,
    access: 'public',
    params: item,
    response: imageUrl,
  }),
}
