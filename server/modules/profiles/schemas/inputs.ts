import { z } from 'zod'
import { MAX_DB_INTEGER } from '#server/api/contract.ts'
import { clearable, money } from '#server/api/form-fields.ts'
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
  paymentStatuses,
} from '../rules.ts'

// What a person writes into a profile: the body of each profile endpoint and, the same schema, the
// form of its section on /profile and on Payment Details (app/routes/profile/forms.server.ts names which
// form uses which). Messages are keys of the `profile` namespace: the page shows them in the
// reader's language and the API words them for its caller (server/api/messages.ts).

const problem = (key: string) => `profile:errors.${key}`
const required = problem('required')
const choose = problem('choose')

const text = (max: number) => z.string({ error: required }).trim().max(max, problem('tooLong'))
const requiredText = (max: number) => text(max).min(1, required)
const optionalText = (max: number) => text(max).optional().nullable()
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: choose })
const countryCode = z
  .string({ error: choose })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, choose)
const languageCode = z
  .string({ error: choose })
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,3}$/, choose)
const monthPattern = /^\d{4}-(0[1-9]|1[0-2])$/
const month = z
  .string({ error: problem('month') })
  .trim()
  .regex(monthPattern, problem('month'))
const year = (from: number, message: string) =>
  z.coerce.number({ error: message }).int(message).min(from, message).max(2100, message)
const httpUrl = z
  .string()
  .trim()
  .max(limits.url, problem('tooLong'))
  .regex(/^https?:\/\/[^\s]+$/i, problem('url'))
/** A row chosen from a list (a category, an industry). */
const chosenId = z.coerce.number({ error: choose }).int(choose).positive(choose).max(MAX_DB_INTEGER, choose)
const chosenIds = (max: number) => z.array(chosenId).max(max, problem('tooMany')).default([])
const yearsOfExperience = z.coerce
  .number({ error: problem('number') })
  .int(problem('number'))
  .min(0, problem('number'))
  .max(limits.years, problem('number'))
/** An hourly rate in minor units; a form types it as "45.50". */
const rate = money(parseAmount, { required, invalid: problem('amount') }, (minor) =>
  minor.min(limits.rateMin, problem('rateRange')).max(limits.rateMax, problem('rateRange')),
)

export const bodies = {
  description: z.object({ description: text(limits.description).default('') }),
  title: z.object({ title: requiredText(limits.title) }),
  titleOverview: z.object({ title: requiredText(limits.title), overview: text(limits.overview).default('') }),
  experienceLevel: z.object({ experienceLevel: oneOf(experienceLevels) }),
  yearsOfExperience: z.object({ yearsOfExperience }),
  country: z.object({ country: countryCode, city: optionalText(limits.city) }),
  availability: z.object({ availability: oneOf(availabilities) }),
  hourlyRate: z.object({ amountMinor: rate, currency: oneOf(currencies) }),
  language: z.object({ code: languageCode, level: oneOf(languageLevels) }),
  languageLevel: z.object({ level: oneOf(languageLevels) }),
  categorization: z.object({
    categoryId: chosenId,
    subcategoryIds: chosenIds(limits.subcategories),
    skillIds: chosenIds(limits.skills),
  }),
  gender: z.object({ gender: oneOf(genders) }),
  education: z
    .object({
      school: requiredText(limits.name),
      degree: requiredText(limits.name),
      fieldOfStudy: text(limits.name).default(''),
      startYear: year(1950, problem('year')).optional().nullable(),
      endYear: year(1950, problem('year')).optional().nullable(),
      description: text(limits.longText).default(''),
    })
    .refine((v) => !v.startYear || !v.endYear || v.endYear >= v.startYear, {
      path: ['endYear'],
      message: problem('endBeforeStart'),
    }),
  employment: z
    .object({
      company: requiredText(limits.name),
      role: requiredText(limits.name),
      country: countryCode.optional().nullable(),
      startMonth: month,
      endMonth: month.optional().nullable(),
      description: text(limits.longText).default(''),
    })
    .refine((v) => !v.endMonth || typeof v.startMonth !== 'string' || v.endMonth >= v.startMonth, {
      path: ['endMonth'],
      message: problem('endBeforeStart'),
    }),
  certification: z.object({
    name: requiredText(limits.name),
    issuer: requiredText(limits.name),
    issuedMonth: month.optional().nullable(),
    credentialUrl: httpUrl.optional().nullable(),
  }),
  portfolio: z.object({
    title: requiredText(limits.name),
    description: text(limits.longText).default(''),
    projectUrl: httpUrl.optional().nullable(),
    completedMonth: month.optional().nullable(),
  }),
  clientBasics: z.object({
    country: countryCode,
    city: optionalText(limits.city),
    industryId: chosenId.optional().nullable(),
  }),
  companyBasics: z.object({
    country: countryCode,
    city: optionalText(limits.city),
    industryId: chosenId.optional().nullable(),
    website: httpUrl.optional().nullable(),
    companySize: oneOf(companySizes).optional().nullable(),
    foundedYear: year(1800, problem('foundedYear')).optional().nullable(),
  }),
  clientText: z.object({ text: text(limits.longText) }),
  /**
   * The editor's "rate and availability" and "personal details" sections, one call each: what is
   * left out stays as it is. A rate needs its currency; a currency alone changes nothing (the rate
   * form always sends one), and a city needs its country.
   */
  details: z
    .object({
      experienceLevel: oneOf(experienceLevels).optional(),
      yearsOfExperience: yearsOfExperience.optional(),
      availability: oneOf(availabilities).optional(),
      amountMinor: rate.optional(),
      currency: oneOf(currencies).optional(),
      country: countryCode.optional(),
      city: optionalText(limits.city),
      gender: oneOf(genders).optional(),
    })
    .refine((v) => v.amountMinor === undefined || v.currency !== undefined, {
      path: ['currency'],
      message: choose,
    })
    .refine((v) => v.city == null || v.country !== undefined, { path: ['country'], message: choose }),
  /** A client's or company's "about" section: who, what and the description together. */
  about: z.object({
    who: text(limits.longText).default(''),
    what: text(limits.longText).default(''),
    description: text(limits.description).default(''),
  }),
  clientDescription: z.object({ description: text(limits.description).default('') }),
  clientCategorization: z.object({
    categoryId: chosenId,
    subcategoryIds: chosenIds(limits.subcategories),
  }),
}

const holderName = requiredText(limits.name)
const iban = z
  .string({ error: required })
  .trim()
  .max(limits.iban, problem('tooLong'))
  .refine(isValidIban, problem('iban'))
const bic = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, problem('bic'))
const payEmail = z
  .string({ error: required })
  .trim()
  .toLowerCase()
  .max(limits.email, problem('tooLong'))
  .regex(emailPattern, problem('email'))
const makeDefault = z.boolean().optional()

/**
 * One kind of payment method each: its form on Payment Details sends `kind` as a hidden field. A
 * connected account (`stripe_account`) is opened by the gateway, never typed in (decision 333).
 */
export const paymentMethodInputs = {
  bank: z.object({
    kind: z.literal('bank'),
    holderName,
    iban,
    bic: bic.optional().nullable(),
    bankName: optionalText(limits.name),
    makeDefault,
  }),
  paypal: z.object({ kind: z.literal('paypal'), holderName, email: payEmail, makeDefault }),
}

export const paymentBodies = {
  add: z.discriminatedUnion('kind', [paymentMethodInputs.bank, paymentMethodInputs.paypal], {
    error: choose,
  }),
  /**
   * The IBAN or address may be left out to keep the stored one (the UI never has it
   * unmasked); a blank BIC or bank name clears it.
   */
  update: z.object({
    holderName,
    iban: iban.optional(),
    bic: clearable(bic),
    bankName: clearable(text(limits.name)),
    email: payEmail.optional(),
  }),
  status: z.object({
    status: oneOf(paymentStatuses).optional(),
    isDefault: z.literal(true, { error: choose }).optional(),
  }),
}
