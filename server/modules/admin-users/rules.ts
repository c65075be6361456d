import { z } from 'zod'
import { adminUserLimits, roleIds, userStatuses } from './limits.ts'

// The admin's user screens (issue 18 item 3): the one zod schema of each form, shared by the API
// and the pages (conform). Messages are keys of the `adminUsers` namespace; the API sends them as
// they are, as the complaints module does (decision 212).
export { adminUserLimits, roleIds, userStatuses }

const reason = z
  .string({ error: 'errors.reasonRequired' })
  .trim()
  .min(3, 'errors.reasonShort')
  .max(adminUserLimits.reason, 'errors.tooLong')
const optionalReason = z
  .string()
  .trim()
  .max(adminUserLimits.reason, 'errors.tooLong')
  .optional()
  .transform((v) => v || undefined)

/** Suspending and deleting say why (the user and the audit are told); reactivating and a reset mail may. */
export const suspendSchema = z.object({ reason })
export const deleteSchema = z.object({ reason })
export const reactivateSchema = z.object({ reason: optionalReason })
export const resetSchema = z.object({ reason: optionalReason })

/** Granting or taking the SuperAdmin role says why (decision 265). */
export const roleChanges = ['grant', 'take'] as const
export const superAdminSchema = z.object({ change: z.enum(roleChanges, { error: 'errors.change' }), reason })

const page = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(10_000, 'is too large')
  .default(1)

/** The search's GET form: words of a name or an email, a role, a status. Empty fields mean "any". */
export const userSearchQuery = z.object({
  q: z
    .string()
    .trim()
    .max(adminUserLimits.query, 'is too long')
    .optional()
    .transform((v) => v || undefined),
  role: z.coerce
    .number({ error: 'is not a role' })
    .pipe(
      z.union(
        roleIds.map((r) => z.literal(r)),
        { error: 'is not a role' },
      ),
    )
    .optional(),
  status: z.enum(userStatuses, { error: 'is not an account status' }).optional(),
  page,
})
export type UserSearch = z.output<typeof userSearchQuery>
