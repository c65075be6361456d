import type { Caller } from '#server/api/handler.ts'
import { forbidden, notFound } from '#server/api/errors.ts'
import { Role } from '../identity/permissions.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import {
  conflict,
  lockAdmins,
  lockoutOf,
  OBJECT,
  requireAdmin,
  type AdminUsersDeps,
  type Db,
} from './shared.ts'
import { userDetail } from './user-detail.ts'

/**
 * Grants or takes the SuperAdmin role of another active account (decision 265): never one's own,
 * never the last active SuperAdmin's, with a reason, audited; the account's sessions end
 * (identity.rolesChanged), so its next sign-in has the new rights, and a new SuperAdmin must set
 * up two-factor sign-in then (decision 260). The caller is checked again inside the transaction:
 * an admin whose own role was taken a moment ago acts no more.
 */
export async function changeSuperAdmin(
  { db, dialect, identity }: AdminUsersDeps,
  caller: Caller,
  userId: number,
  input: { change: 'grant' | 'take'; reason: string },
) {
  const adminId = requireAdmin(caller)
  if (userId === adminId) throw conflict('You cannot change your own roles', 'userId', 'errors.self')
  await db.transaction().execute(async (trx) => {
    await lockAdmins(trx as unknown as Db, dialect)
    const rolesOfUser = async (id: number) =>
      (await trx.selectFrom('user_role').select('role').where('user_id', '=', id).execute()).map(
        (r) => r.role,
      )
    if (!(await rolesOfUser(adminId)).includes(Role.SuperAdmin)) throw forbidden()
    const user = await trx.selectFrom('app_user').select('status').where('id', '=', userId).executeTakeFirst()
    if (!user) throw notFound('User')
    const roles = await rolesOfUser(userId)
    const isAdmin = roles.includes(Role.SuperAdmin)
    if (input.change === 'grant') {
      if (user.status !== 'Active')
        throw conflict(`The account is ${user.status}`, 'status', 'errors.notActive')
      if (isAdmin) throw conflict('The account is a SuperAdmin already', 'change', 'errors.alreadyAdmin')
      await trx.insertInto('user_role').values({ user_id: userId, role: Role.SuperAdmin }).execute()
    } else {
      if (!isAdmin) throw conflict('The account is not a SuperAdmin', 'change', 'errors.notAdmin')
      if ((await lockoutOf(trx as unknown as Db, adminId, userId, roles)) === 'lastAdmin')
        throw conflict('This is the last active SuperAdmin', 'userId', 'errors.lastAdmin')
      await trx
        .deleteFrom('user_role')
        .where('user_id', '=', userId)
        .where('role', '=', Role.SuperAdmin)
        .execute()
    }
    await identity.rolesChanged(trx, userId)
    await recordAdminAction(trx, {
      actorId: adminId,
      action: input.change === 'grant' ? 'grantSuperAdmin' : 'takeSuperAdmin',
      objectType: OBJECT,
      objectId: userId,
      reason: input.reason,
    })
  })
  return userDetail(db, adminId, userId)
}
