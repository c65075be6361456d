import { sql, type ExpressionBuilder, type Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError, forbidden } from '#server/api/errors.ts'
import { Role } from '../identity/permissions.ts'
import type { IdentityService } from '../identity/service.ts'

// What the admin's user screens share: their dependencies, who may use them, and the rule that
// the platform always keeps an active SuperAdmin.

export type Db = Kysely<Database>

export interface AdminUsersDeps {
  db: Db
  dialect: Dialect
  identity: Pick<IdentityService, 'setStatus' | 'mailPasswordReset' | 'rolesChanged'>
}

/** The audit trail's object type for accounts. */
export const OBJECT = 'user'

export function requireAdmin(caller: Caller) {
  if (!caller.roles.includes(Role.SuperAdmin)) throw forbidden()
  return caller.userId
}

/** A 409 whose field message is a key of the `adminUsers` namespace, as the pages show it. */
export function conflict(detail: string, field: string, message: string) {
  return new ApiError(409, 'Conflict', detail, { [field]: [message] })
}

/** The account's last sign-in (the newest session it started), as `last_active`. */
export const lastSignIn = (eb: ExpressionBuilder<Database & { u: Database['app_user'] }, 'u'>) =>
  eb
    .selectFrom('user_session as s')
    .select((e) => e.fn.max('s.created_at').as('at'))
    .whereRef('s.user_id', '=', 'u.id')
    .as('last_active')

/** The roles of these accounts, by account. */
export async function rolesOf(db: Db, ids: number[]) {
  const rows = ids.length
    ? await db
        .selectFrom('user_role')
        .select(['user_id', 'role'])
        .where('user_id', 'in', ids)
        .orderBy('role')
        .execute()
    : []
  const map = new Map<number, number[]>()
  for (const r of rows) map.set(r.user_id, [...(map.get(r.user_id) ?? []), r.role])
  return map
}

/** Whether suspending or deleting `userId` would lock the platform out: oneself, or the last active SuperAdmin. */
export async function lockoutOf(executor: Db, adminId: number, userId: number, roles: number[]) {
  if (userId === adminId) return 'self' as const
  if (!roles.includes(Role.SuperAdmin)) return null
  const others = await executor
    .selectFrom('user_role as r')
    .innerJoin('app_user as u', 'u.id', 'r.user_id')
    .select('u.id')
    .where('r.role', '=', Role.SuperAdmin)
    .where('u.status', '=', 'Active')
    .where('u.id', '!=', userId)
    .limit(1)
    .executeTakeFirst()
  return others ? null : ('lastAdmin' as const)
}

/**
 * One lock for every check that the platform keeps a SuperAdmin, taken first in the transaction
 * (before any row lock, or the audit row's key check on the actor could deadlock with another
 * transaction). SQLite's write transaction serialises these by itself.
 */
export async function lockAdmins(trx: Db, dialect: Dialect) {
  if (dialect === 'postgres')
    await sql`select pg_advisory_xact_lock(hashtext('workneer:superadmins'))`.execute(trx)
}
