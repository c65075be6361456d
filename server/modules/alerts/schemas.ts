import { z } from 'zod'
import { MAX_DB_INTEGER, recordId } from '#server/api/contract.ts'
import { flag } from '#server/api/form-fields.ts'
import { budgetTypes, limits } from '../projects/rules.ts'
import { alertFrequencies, savedSearchKinds } from './choices.ts'

export { alertFrequencies, savedSearchKinds, type AlertFrequency, type SavedSearchKind } from './choices.ts'

// A saved search (issue 41 item 1): its name, how often its email digest goes, and the filters of
// Find Project (a freelancer's) or Find Freelancers (a client's). One schema for the API's body and
// the "Save this search" form; the form sends the search page's own query fields beside the name.

/** How many saved searches one person keeps. */
export const MAX_SAVED_SEARCHES = 20
export const NAME_MAX = 80

const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` })
const blankless = (v: unknown) => (v === '' ? undefined : v)
const amount = z.preprocess(
  blankless,
  z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must not be negative')
    .max(MAX_DB_INTEGER, 'is too large')
    .optional(),
)

/** The filters a saved search keeps: what both search pages filter on that an alert can match. */
export const savedFilters = z.object({
  search: z.preprocess(
    blankless,
    z.string().trim().max(limits.searchTerm, `must be at most ${limits.searchTerm} characters`).optional(),
  ),
  categoryId: z.preprocess(blankless, recordId.optional()),
  subcategoryId: z.preprocess(blankless, recordId.optional()),
  skills: z
    .union([recordId, z.array(recordId)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.number()).max(limits.skills, `may list at most ${limits.skills}`)),
  budgetType: z.preprocess(blankless, choice(budgetTypes).optional()),
  budgetMin: amount,
  budgetMax: amount,
  remote: z.preprocess(blankless, flag('must be true or false').optional()),
})
export type SavedFilters = z.output<typeof savedFilters>

const name = z
  .string({ error: 'alerts:errors.nameRequired' })
  .trim()
  .min(1, 'alerts:errors.nameRequired')
  .max(NAME_MAX, 'alerts:errors.nameTooLong')

/** Filters only Find Project has: a Find Freelancers search refuses them, naming the field. */
const projectOnly = ['budgetType', 'budgetMin', 'budgetMax', 'remote'] as const

export const savedSearchInput = savedFilters
  .extend({
    name,
    kind: z.preprocess(blankless, choice(savedSearchKinds).default('project')),
    frequency: z.preprocess(blankless, choice(alertFrequencies).default('daily')),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'freelancer')
      for (const field of projectOnly)
        if (v[field] !== undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: 'alerts:errors.projectOnly' })
    if (v.budgetMin !== undefined && v.budgetMax !== undefined && v.budgetMin > v.budgetMax)
      ctx.addIssue({ code: 'custom', path: ['budgetMax'], message: 'alerts:errors.budgetOrder' })
  })
export type SavedSearchInput = z.output<typeof savedSearchInput>

/** Renaming, switching on or off, and the digest's frequency: each field optional. */
export const savedSearchChange = z.object({
  name: name.optional(),
  frequency: z.preprocess(blankless, choice(alertFrequencies).optional()),
  active: z.preprocess(blankless, flag('must be true or false').optional()),
})
export type SavedSearchChange = z.output<typeof savedSearchChange>

export const savedSearch = z.object({
  id: z.number(),
  kind: z.enum(savedSearchKinds),
  name: z.string(),
  frequency: z.enum(alertFrequencies),
  active: z.boolean(),
  /** The freelancer's first alert, made from their profile, follows it until they edit it. */
  fromProfile: z.boolean(),
  filters: z.object({
    search: z.string().optional(),
    categoryId: z.number().optional(),
    subcategoryId: z.number().optional(),
    skills: z.array(z.number()),
    budgetType: z.enum(budgetTypes).optional(),
    budgetMin: z.number().optional(),
    budgetMax: z.number().optional(),
    remote: z.boolean().optional(),
  }),
  /** Matches found since the last digest. */
  newMatches: z.number(),
  createdAt: z.string(),
})
export type SavedSearch = z.output<typeof savedSearch>

export const unsubscribeInput = z.object({
  token: z.string({ error: 'is required' }).trim().min(1, 'is required').max(400, 'is too long'),
})
export const unsubscribeResult = z.object({
  /** unsubscribed: this link stopped the digest; already: it had been used (nothing changed). */
  outcome: z.enum(['unsubscribed', 'already']),
  name: z.string(),
})
