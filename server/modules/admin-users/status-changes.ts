import type { UserStatus } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import { erasePersonalData } from './erase.ts'
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

// What the admin does to an account: suspend, reactivate, delete, mail a reset link. Each change
// runs in one transaction with its audit row (decision 214); status changes go through identity's
// setStatus, which ends sessions and, after commit, hub connections.

export interface StatusChange {
  action: 'suspend' | 'unsuspend' | 'delete'
  /** The statuses the change may start from. */
  from: UserStatus[]
  to: 'Active' | 'Suspended' | 'Deleted'
  reason?: string
  /** Whether the change could lock the platform out (oneself, the last SuperAdmin), so it is checked under the lock. */
  locks: boolean
}

export const statusChanges = {
  suspend: { action: 'suspend', from: ['Active', 'Pending'], to: 'Suspended', locks: true },
  unsuspend: { action: 'unsuspend', from: ['Suspended'], to: 'Active', locks: false },
  delete: { action: 'delete', from: ['Active', 'Pending', 'Suspended'], to: 'Deleted', locks: true },
} satisfies Record<string, StatusChange>

/** Refuses a change that would leave the platform without the admin or without a SuperAdmin. */
async function refuseLockout(trx: Db, adminId: number, userId: number) {
  const roles = (
    await trx.selectFrom('user_role').select('role').where('user_id', '=', userId).execute()
  ).map((r) => r.role)
  const lock = await lockoutOf(trx, adminId, userId, roles)
  if (lock === 'self') throw conflict('You cannot do this to your own account', 'userId', 'errors.self')
  if (lock === 'lastAdmin') throw conflict('This is the last active SuperAdmin', 'userId', 'errors.lastAdmin')
}

/** One audited change of an account's status, refused when it would lock the platform out or the account is not in `from`. */
export async function changeStatus(
  { db, dialect, identity }: AdminUsersDeps,
  caller: Caller,
  userId: number,
  change: StatusChange,
) {
  const adminId = requireAdmin(caller)
  await db.transaction().execute(async (trx) => {
    // Two admins suspending each other at once must not leave none (lockAdmins).
    if (change.locks) await lockAdmins(trx as unknown as Db, dialect)
    let q = trx.selectFrom('app_user').select(['id', 'status']).where('id', '=', userId)
    if (dialect === 'postgres') q = q.forUpdate()
    const user = await q.executeTakeFirst()
    if (!user) throw notFound('User')
    if (change.locks) await refuseLockout(trx as unknown as Db, adminId, userId)
    if (!change.from.includes(user.status))
      throw conflict(`The account is ${user.status}`, 'status', 'errors.status')
    if (change.to === 'Deleted') await erasePersonalData(trx, dialect, userId)
    await identity.setStatus(trx, userId, change.to)
    await recordAdminAction(trx, {
      actorId: adminId,
      action: change.action,
      objectType: OBJECT,
      objectId: userId,
      fromState: user.status,
      toState: change.to,
      reason: change.reason ?? null,
    })
  })
  return userDetail(db, adminId, userId)
}

/** Mails the account a reset link (its password still works until the link is used), audited. */
export async function mailResetLink(
  { db, identity }: AdminUsersDeps,
  caller: Caller,
  userId: number,
  reason?: string,
) {
  const adminId = requireAdmin(caller)
  await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('app_user').select('status').where('id', '=', userId).executeTakeFirst()
    if (!user) throw notFound('User')
    if (user.status === 'Deleted') throw conflict('The account is deleted', 'status', 'errors.status')
    await identity.mailPasswordReset(trx, userId)
    await recordAdminAction(trx, {
      actorId: adminId,
      action: 'resetPassword',
      objectType: OBJECT,
      objectId: userId,
      reason: reason ?? null,
    })
  })
  return userDetail(db, adminId, userId)
}
