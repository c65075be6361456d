import { z } from 'zod'
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
  parseAmount,
  stripeAccountPattern,
} from '../../../server/modules/profiles/rules'

// One zod schema per profile form, shared by the route's action (server) and its useForm
// (browser). Messages are keys of the `profile` namespace (errors.*); a field shows the first.
const required = 'errors.required'
const tooLong = 'errors.tooLong'
const text = (max: number) => z.string().trim().max(max, tooLong)
const requiredText = (max: number) => z.string({ error: required }).trim().min(1, required).max(max, tooLong)
const optionalText = (max: number) => text(max).optional()
const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: 'errors.choose' })
const country = z.string({ error: 'errors.choose' }).regex(/^[A-Z]{2}$/, 'errors.choose')
const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'errors.month')
const year = z
  .number({ error: 'errors.year' })
  .int('errors.year')
  .min(1950, 'errors.year')
  .max(2100, 'errors.year')
const url = z
  .string()
  .trim()
  .max(limits.url, tooLong)
  .regex(/^https?:\/\/\S+$/i, 'errors.url')
const id = z.number({ error: 'errors.choose' }).int().positive()
const ids = (max: number) => z.array(id).max(max, 'errors.tooMany').default([])
const itemId = z.number().int().positive().optional()
const amount = z
  .string()
  .refine((v) => parseAmount(v) !== null, 'errors.amount')
  .refine(
    (v) => (parseAmount(v) ?? 0) >= limits.rateMin && (parseAmount(v) ?? 0) <= limits.rateMax,
    'errors.rateRange',
  )
  .optional()

export const profileForms = {
  titleOverview: z.object({ title: requiredText(limits.title), overview: text(limits.overview).default('') }),
  description: z.object({ description: text(limits.description).default('') }),
  /** Rate and availability (one section, one Save): what is left empty stays as it is. */
  rates: z.object({
    amount,
    currency: choice(currencies),
    availability: choice(availabilities).optional(),
    experienceLevel: choice(experienceLevels).optional(),
    yearsOfExperience: z
      .number({ error: 'errors.number' })
      .int('errors.number')
      .min(0, 'errors.number')
      .max(limits.years, 'errors.number')
      .optional(),
  }),
  /** Location and gender: a city needs its country. */
  personal: z
    .object({
      country: country.optional(),
      city: optionalText(limits.city),
      gender: choice(genders).optional(),
    })
    .refine((v) => !v.city || v.country, { path: ['country'], message: 'errors.choose' }),
  /** A language and its level: a new one is added, a listed one gets the new level. */
  language: z.object({
    code: z.string({ error: 'errors.choose' }).regex(/^[a-z]{2,3}$/, 'errors.choose'),
    level: choice(languageLevels),
  }),
  categorization: z.object({
    categoryId: id,
    subcategoryIds: ids(limits.subcategories),
    skillIds: ids(limits.skills),
  }),
  languageDelete: z.object({ code: z.string().regex(/^[a-z]{2,3}$/) }),
  education: z
    .object({
      id: itemId,
      school: requiredText(limits.name),
      degree: requiredText(limits.name),
      fieldOfStudy: optionalText(limits.name),
      startYear: year.optional(),
      endYear: year.optional(),
      description: optionalText(limits.longText),
    })
    .refine((v) => !v.startYear || !v.endYear || v.endYear >= v.startYear, {
      path: ['endYear'],
      message: 'errors.endBeforeStart',
    }),
  employment: z
    .object({
      id: itemId,
      company: requiredText(limits.name),
      role: requiredText(limits.name),
      country: country.optional(),
      startMonth: z.string({ error: required }).pipe(month),
      endMonth: month.optional(),
      description: optionalText(limits.longText),
    })
    .refine((v) => !v.endMonth || v.endMonth >= v.startMonth, {
      path: ['endMonth'],
      message: 'errors.endBeforeStart',
    }),
  certification: z.object({
    id: itemId,
    name: requiredText(limits.name),
    issuer: requiredText(limits.name),
    issuedMonth: month.optional(),
    credentialUrl: url.optional(),
  }),
  portfolio: z.object({
    id: itemId,
    title: requiredText(limits.name),
    description: optionalText(limits.longText),
    projectUrl: url.optional(),
    completedMonth: month.optional(),
  }),
  remove: z.object({ id: z.number().int().positive() }),
  /** A form with nothing to fill in (removing the schedule of rates). */
  confirm: z.object({}),
  clientBasics: z.object({ country, city: optionalText(limits.city), industryId: id.optional() }),
  companyBasics: z.object({
    country,
    city: optionalText(limits.city),
    industryId: id.optional(),
    website: url.optional(),
    companySize: choice(companySizes).optional(),
    foundedYear: z
      .number({ error: 'errors.year' })
      .int('errors.year')
      .min(1800, 'errors.year')
      .max(2100, 'errors.year')
      .optional(),
  }),
  /** A client's or company's "about" section: who, what and the description. */
  about: z.object({
    who: text(limits.longText).default(''),
    what: text(limits.longText).default(''),
    description: text(limits.description).default(''),
  }),
  clientCategorization: z.object({ categoryId: id, subcategoryIds: ids(limits.subcategories) }),
}

// Payment Details: a bank account or a PayPal address, and the holder's name when editing.
const holderName = requiredText(limits.name)
export const paymentForms = {
  bank: z.object({
    holderName,
    iban: z.string({ error: required }).trim().max(limits.iban, tooLong).refine(isValidIban, 'errors.iban'),
    bic: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'errors.bic')
      .optional(),
    bankName: optionalText(limits.name),
    makeDefault: z.boolean().optional(),
  }),
  paypal: z.object({
    holderName,
    email: z
      .string({ error: required })
      .trim()
      .toLowerCase()
      .max(limits.email, tooLong)
      .regex(emailPattern, 'errors.email'),
    makeDefault: z.boolean().optional(),
  }),
  stripe: z.object({
    holderName,
    stripeAccount: z.string({ error: required }).trim().regex(stripeAccountPattern, 'stripe:errors.account'),
    makeDefault: z.boolean().optional(),
  }),
  update: z.object({
    id: z.number().int().positive(),
    holderName,
    iban: z.string().trim().max(limits.iban, tooLong).refine(isValidIban, 'errors.iban').optional(),
    bic: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'errors.bic')
      .optional(),
    bankName: optionalText(limits.name),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(limits.email, tooLong)
      .regex(emailPattern, 'errors.email')
      .optional(),
    stripeAccount: z.string().trim().regex(stripeAccountPattern, 'stripe:errors.account').optional(),
  }),
  status: z.object({
    id: z.number().int().positive(),
    change: z.enum(['default', 'activate', 'deactivate', 'delete']),
  }),
}
