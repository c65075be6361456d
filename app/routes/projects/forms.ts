import { z } from 'zod'
import {
  budgetTypes,
  currencies,
  experienceLevels,
  limits,
  parseAmount,
  planTotal,
} from '../../../server/modules/projects/rules.ts'

// The project forms' zod schemas, shared by each route's action (server) and useForm (browser).
// Messages are keys of the `projects` namespace (errors.*); each field shows its first one.
const required = 'errors.required'
const text = (min: number, max: number, short: string) =>
  z.string({ error: required }).trim().min(min, short).max(max, 'errors.tooLong')
const amount = z
  .string({ error: required })
  .refine((v) => parseAmount(v) !== null && parseAmount(v)! > 0, 'errors.amount')
  .transform((v) => parseAmount(v)!)
const optionalAmount = z.string().optional()
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'errors.date')
  .optional()
const days = z.coerce
  .number({ error: 'errors.days' })
  .int('errors.days')
  .min(1, 'errors.days')
  .max(limits.durationDays, 'errors.days')
export const PLAN_ROWS = 5

const planRow = z.object({
  title: z.string().trim().max(limits.installmentTitle, 'errors.tooLong').optional(),
  amount: optionalAmount,
  dueDate: date,
})
type PlanRow = z.infer<typeof planRow>

/** Filled rows of an installment plan as the API takes them; blank rows are ignored. */
export function planOf(rows: PlanRow[] | undefined) {
  return (rows ?? [])
    .filter((r) => r.title || r.amount)
    .map((r) => ({
      title: r.title ?? '',
      amountMinor: parseAmount(r.amount ?? '') ?? 0,
      ...(r.dueDate ? { dueDate: r.dueDate } : {}),
    }))
}

function checkPlan(rows: PlanRow[] | undefined, total: number | undefined, ctx: z.RefinementCtx) {
  ;(rows ?? []).forEach((r, i) => {
    if (!r.title && !r.amount) return
    if (!r.title) ctx.addIssue({ code: 'custom', path: ['installments', i, 'title'], message: required })
    if (parseAmount(r.amount ?? '') === null || parseAmount(r.amount ?? '') === 0)
      ctx.addIssue({ code: 'custom', path: ['installments', i, 'amount'], message: 'errors.amount' })
  })
  const plan = planOf(rows)
  if (total !== undefined && plan.length && plan.every((p) => p.amountMinor > 0) && planTotal(plan) !== total)
    ctx.addIssue({ code: 'custom', path: ['installments'], message: 'errors.planTotal' })
}

export const projectFormSchema = z
  .object({
    intent: z.enum(['draft', 'publish']).default('publish'),
    title: text(limits.title.min, limits.title.max, 'errors.titleShort'),
    description: text(limits.description.min, limits.description.max, 'errors.descriptionShort'),
    subcategoryId: z.coerce.number({ error: required }).int().positive(required),
    skillIds: z
      .array(z.coerce.number().int().positive())
      .max(limits.skills, 'errors.tooManySkills')
      .optional(),
    budgetType: z.enum(budgetTypes, { error: required }),
    budget: amount,
    currency: z.enum(currencies, { error: required }),
    durationDays: days.optional(),
    deadline: date,
    experienceLevel: z.enum(experienceLevels).optional(),
    remote: z.boolean().default(false),
    location: z.string().trim().max(limits.location, 'errors.tooLong').optional(),
    country: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'errors.country')
      .optional(),
    installments: z.array(planRow).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.remote && !v.location)
      ctx.addIssue({ code: 'custom', path: ['location'], message: 'errors.locationRequired' })
    checkPlan(v.installments, v.budgetType === 'fixed' ? v.budget : undefined, ctx)
  })

export const proposalFormSchema = z
  .object({
    intent: z.enum(['propose', 'revise']),
    /** The proposal being edited (intent revise). */
    id: z.coerce.number().int().positive().optional(),
    coverLetter: text(limits.coverLetter.min, limits.coverLetter.max, 'errors.coverShort'),
    bid: amount,
    durationDays: days,
    fixed: z.string().optional(),
    installments: z.array(planRow).optional(),
  })
  .superRefine((v, ctx) => checkPlan(v.installments, v.fixed === 'true' ? v.bid : undefined, ctx))

export const commentFormSchema = z.object({
  intent: z.literal('comment'),
  body: text(limits.comment.min, limits.comment.max, required),
  parentId: z.coerce.number().int().positive().optional(),
})
export const reviewFormSchema = z.object({
  contractId: z.coerce.number().int().positive(),
  rating: z.coerce.number({ error: 'errors.rating' }).int().min(1, 'errors.rating').max(5, 'errors.rating'),
  body: text(limits.review.min, limits.review.max, required),
})
export const noteFormSchema = z.object({
  intent: z.string(),
  installmentId: z.coerce.number().int().positive(),
  note: z.string().trim().max(limits.note, 'errors.tooLong').optional(),
})
