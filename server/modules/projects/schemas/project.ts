import { z } from 'zod'
import { MAX_DB_INTEGER } from '#server/api/contract.ts'
import { flag } from '#server/api/form-fields.ts'
import {
  budgetTypes,
  currencies,
  experienceLevels,
  limits,
  postedWithinDays,
  projectSorts,
  projectVisibilities,
} from '../rules.ts'
import { projectStates } from '../machines.ts'
import {
  attachment,
  choice,
  chosenId,
  day,
  days,
  hours,
  id,
  named,
  oneOf,
  page,
  person,
  plan,
  planOut,
  price,
  problem,
  planMustAddUp,
  today,
  writing,
} from './fields.ts'

/** An hourly project names its lowest rate, at most its highest, and the hours a week it expects. */
function hourlyTerms(
  v: { budgetMinor?: unknown; budgetMinMinor?: unknown; hoursPerWeek?: unknown },
  ctx: z.RefinementCtx,
) {
  if (v.budgetMinMinor === undefined)
    ctx.addIssue({ code: 'custom', path: ['budgetMinMinor'], message: problem('amount') })
  else if (
    Number.isInteger(v.budgetMinMinor) &&
    Number.isInteger(v.budgetMinor) &&
    (v.budgetMinMinor as number) > (v.budgetMinor as number)
  )
    ctx.addIssue({ code: 'custom', path: ['budgetMinMinor'], message: problem('rateRange') })
  if (v.hoursPerWeek === undefined)
    ctx.addIssue({ code: 'custom', path: ['hoursPerWeek'], message: problem('hours') })
}

/**
 * A project as its client writes it: the body of Create Project and Edit Project, and the schema
 * of their form (app/routes/projects/project-form.tsx), so each field's rules are written here once.
 */
export const projectInput = z
  .object({
    title: writing(limits.title.min, limits.title.max, problem('titleShort')),
    description: writing(limits.description.min, limits.description.max, problem('descriptionShort')),
    subcategoryId: chosenId,
    skillIds: z.array(chosenId).max(limits.skills, problem('tooManySkills')).default([]),
    budgetType: choice(budgetTypes),
    /** A fixed price's total, or an hourly project's highest rate. */
    budgetMinor: price(),
    /** An hourly project's lowest rate (ignored for a fixed price). */
    budgetMinMinor: price().optional(),
    /** The hours a week an hourly project expects, 1 to 80 (ignored for a fixed price). */
    hoursPerWeek: hours.optional(),
    currency: choice(currencies),
    durationDays: days.optional(),
    deadline: day.refine((v) => v >= today(), problem('deadlinePast')).optional(),
    experienceLevel: choice(experienceLevels).optional(),
    /** Most engineering work is done at a desk: a project is remote unless its client names a site. */
    remote: flag(problem('choose')).default(true),
    location: z.string().trim().max(limits.location, problem('tooLong')).optional(),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, problem('country'))
      .optional(),
    /** A fixed price's installments (an hourly project is paid by the week: ignored there, decision 323). */
    installments: plan,
    /** Who sees it: everyone, signed-in people only, or only the freelancers its client invites (decision 335). */
    visibility: choice(projectVisibilities).default('public'),
    /** false keeps the project as a draft. */
    publish: flag(problem('choose')).default(false),
  })
  .superRefine((v, ctx) => {
    if (!v.remote && !v.location)
      ctx.addIssue({ code: 'custom', path: ['location'], message: problem('locationRequired') })
    if (v.budgetType === 'fixed') planMustAddUp(v.installments, v.budgetMinor, ctx)
    if (v.budgetType === 'hourly') hourlyTerms(v, ctx)
  })
export type ProjectInput = z.output<typeof projectInput>

export const searchQuery = z.object({
  search: z
    .string()
    .trim()
    .max(limits.searchTerm, `must be at most ${limits.searchTerm} characters`)
    .optional(),
  categoryId: id.optional(),
  subcategoryId: id.optional(),
  skills: z
    .union([id, z.array(id)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.number()).max(limits.skills, 'too many skills')),
  budgetMin: z.coerce.number().int().min(0).max(MAX_DB_INTEGER).optional(),
  budgetMax: z.coerce.number().int().min(0).max(MAX_DB_INTEGER).optional(),
  budgetType: oneOf(budgetTypes).optional(),
  currency: oneOf(currencies).optional(),
  experienceLevel: oneOf(experienceLevels).optional(),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter country code')
    .optional(),
  postedWithin: z.coerce
    .number()
    .int()
    .refine(
      (v) => (postedWithinDays as readonly number[]).includes(v),
      `must be one of ${postedWithinDays.join(', ')}`,
    )
    .optional(),
  remote: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  sort: oneOf(projectSorts).optional(),
  ...page,
})
export type SearchQuery = z.output<typeof searchQuery>

export const projectSummary = z.object({
  id: z.number(),
  title: z.string(),
  excerpt: z.string(),
  status: z.enum(projectStates),
  category: named.nullable(),
  subcategory: named.nullable(),
  skills: z.array(named),
  budgetType: z.enum(budgetTypes),
  /** A fixed price's total, or an hourly project's highest rate. */
  budgetMinor: z.number(),
  /** An hourly project's lowest rate (null for a fixed price). */
  budgetMinMinor: z.number().nullable(),
  /** The hours a week an hourly project expects (null for a fixed price). */
  hoursPerWeek: z.number().nullable(),
  currency: z.string(),
  durationDays: z.number().nullable(),
  deadline: z.string().nullable(),
  experienceLevel: z.string().nullable(),
  remote: z.boolean(),
  location: z.string().nullable(),
  country: z.string().nullable(),
  visibility: z.enum(projectVisibilities),
  proposalCount: z.number(),
  createdAt: z.string(),
  publishedAt: z.string().nullable(),
  client: person,
})
export type ProjectSummary = z.infer<typeof projectSummary>

export const projectDetails = projectSummary.extend({
  description: z.string(),
  installments: planOut,
  attachments: z.array(attachment),
  wishlisted: z.boolean(),
  subscribed: z.boolean(),
  isOwner: z.boolean(),
})
