import { z } from 'zod'
import { recordId } from '#server/api/contract.ts'
import { availabilities, currencies, experienceLevels, limits, searchSorts } from '../rules.ts'

// Find Freelancers' query (a GET form's fields, in the API's own words).
const id = recordId
const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` })
const code2 = z
  .string({ error: 'is required' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'must be a two-letter country code')
/** A language's code in a path or a filter. */
export const languageCode = z
  .string({ error: 'is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,3}$/, 'must be a language code')

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
    /** Only freelancers whose identity a SuperAdmin checked (decision 332); a checkbox sends `on`. */
    verifiedOnly: z
      .preprocess(
        (v) =>
          v === 'on' || v === 'true' || v === '1' || v === true
            ? true
            : v === 'false' || v === '0'
              ? false
              : v,
        z.boolean({ error: 'must be true or false' }),
      )
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
