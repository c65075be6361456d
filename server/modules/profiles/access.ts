import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { forbidden } from '#server/api/errors.ts'
import { Role } from '../identity/permissions.ts'
import type { ClientKind } from './shared.ts'

// Who may do what with profiles: each kind of account edits only its own kind of profile, and only
// clients and companies look for freelancers.

export async function rolesOf(db: DB, userId: number) {
  return (await db.selectFrom('user_role').select('role').where('user_id', '=', userId).execute()).map(
    (r) => r.role,
  )
}

export function requireRole(caller: Caller, role: number) {
  if (!caller.roles.includes(role)) throw forbidden()
}

export const requireFreelancer = (caller: Caller) => requireRole(caller, Role.Freelancer)

export const clientRole = (kind: ClientKind) => (kind === 'company' ? Role.Company : Role.Client)

/** Find Freelancers is for those who hire. */
export function requireFinder(caller: Caller) {
  if (!caller.roles.includes(Role.Client) && !caller.roles.includes(Role.Company)) throw forbidden()
}
