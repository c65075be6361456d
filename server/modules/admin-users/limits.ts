import type { UserStatus } from '#server/db/schema.ts'
import { Role } from '../identity/permissions.ts'

// The admin's user screens' plain values, with no zod: the pages' components read them in the
// browser (issue 38), and ./rules.ts builds its schemas from them.
export const userStatuses = [
  'Pending',
  'Active',
  'Suspended',
  'Deleted',
] as const satisfies readonly UserStatus[]
export const roleIds = [Role.SuperAdmin, Role.Client, Role.Company, Role.Freelancer] as const
export const adminUserLimits = { query: 100, reason: 1000, pageSize: 25 } as const
