import { z } from 'zod'
import { MAX_DB_INTEGER, recordId, shownName } from '#server/api/contract.ts'
import { money } from '#server/api/form-fields.ts'
import { limits, parseAmount, planTotal } from '../rules.ts'

// The pieces the projects module's schemas are made of. The inputs that a page's form shares with
// the API word their rules as keys of the `projects` namespace (the page shows them in the
// reader's language; server/api/messages.ts words them for the API's callers).

export const problem = (key: string) => `projects:errors.${key}`
const required = problem('required')
const missing = (input: unknown) => input === undefined || input === ''

/** Text a person writes: trimmed, between `min` and `max` characters. */
export const writing = (min: number, max: number, short = required) =>
  z.string({ error: required }).trim().min(min, short).max(max, problem('tooLong'))

/** One of a list of options (a select or radio buttons). */
export const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (issue) => (missing(issue.input) ? required : problem('choose')) })

/** A row chosen from a list of the catalogue (a subcategory, a skill). */
export const chosenId = z
  .number({ error: (issue) => (missing(issue.input) ? required : problem('choose')) })
  .int(problem('choose'))
  .positive(problem('choose'))
  .max(MAX_DB_INTEGER, problem('choose'))

/** A calendar day, YYYY-MM-DD (what a date input sends). */
export const day = z
  .string({ error: problem('date') })
  .regex(/^\d{4}-\d{2}-\d{2}$/, problem('date'))
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), problem('date'))

/** Today in UTC, as a day: the past-deadline rule compares with it. */
export const today = () => new Date().toISOString().slice(0, 10)

/** An amount of money in minor units (a form types it as "1500.50"). */
export const price = (whenMissing = required) =>
  money(parseAmount, { required: whenMissing, invalid: problem('amount') }, (minor) =>
    minor.positive(problem('amount')).max(limits.amountMinor, problem('amountTooLarge')),
  )

export const days = z
  .number({ error: problem('days') })
  .int(problem('days'))
  .min(1, problem('days'))
  .max(limits.durationDays, problem('days'))

/** Hours a week of hourly work, 1 to 80. */
export const hours = z
  .number({ error: problem('hours') })
  .int(problem('hours'))
  .min(1, problem('hours'))
  .max(limits.hoursPerWeek, problem('hours'))

/**
 * An installment plan. A form has a few rows and leaves the unused ones blank: a row without a
 * title and an amount is no installment; a row with one of them needs the other.
 */
export const plan = z
  .array(
    z
      .object({
        title: writing(1, limits.installmentTitle).optional(),
        amountMinor: price(problem('amount')).optional(),
        dueDate: day.optional(),
      })
      .superRefine((row, ctx) => {
        if (row.title === undefined && row.amountMinor === undefined) return
        if (row.title === undefined) ctx.addIssue({ code: 'custom', path: ['title'], message: required })
        if (row.amountMinor === undefined)
          ctx.addIssue({ code: 'custom', path: ['amountMinor'], message: problem('amount') })
      }),
  )
  .transform((rows) =>
    rows.flatMap(({ title, amountMinor, dueDate }) =>
      title === undefined || amountMinor === undefined
        ? []
        : [{ title, amountMinor, ...(dueDate ? { dueDate } : {}) }],
    ),
  )
  .refine((rows) => rows.length <= limits.installments, problem('tooManyInstallments'))
  .default([])

/**
 * A fixed price's installments add up to it. Checked once the plan and the price are read (the
 * object's own refinement also runs when another of its fields failed).
 */
export function planMustAddUp(installments: unknown, price: unknown, ctx: z.RefinementCtx) {
  const read =
    Array.isArray(installments) &&
    installments.every((i) => Number.isInteger((i as { amountMinor?: unknown })?.amountMinor))
  if (read && Number.isInteger(price) && installments.length && planTotal(installments) !== price)
    ctx.addIssue({ code: 'custom', path: ['installments'], message: problem('planTotal') })
}

// ---- the API's own words, for queries and what it answers ----------------------------------

export const id = recordId
export const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` })
export const page = {
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(limits.pageSize).default(20),
}
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), page: z.number(), pageSize: z.number(), total: z.number() })
export const list = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) })
export const projectParams = z.object({ projectId: id })
export const ok = z.object({ ok: z.literal(true) })

export const named = z.object({ id: z.number(), name: z.string() })
export const person = z.object({ id: z.number(), name: shownName, imageUrl: z.string().nullable() })
export const attachment = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  attachmentType: z.number(),
  size: z.number(),
  mime: z.string(),
  uploadedBy: z.number(),
  createdAt: z.string(),
})
export const planOut = z.array(
  z.object({ title: z.string(), amountMinor: z.number(), dueDate: z.string().optional() }),
)
