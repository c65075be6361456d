import type { Caller } from '#server/api/handler.ts'
import type { UserSearch } from './rules.ts'
import type { AdminUsersDeps } from './shared.ts'
import { changeStatus, mailResetLink, statusChanges } from './status-changes.ts'
import { changeSuperAdmin } from './super-admin.ts'
import { userDetail } from './user-detail.ts'
import { searchUsers } from './user-search.ts'
import { requireAdmin } from './shared.ts'

/**
 * The admin's users (issue 18 item 3): search, one account, suspend, reactivate, delete, a reset
 * mail, the SuperAdmin role; one module per use case, assembled here.
 */
export function createAdminUsersService(deps: AdminUsersDeps) {
  const { db } = deps
  return {
    search: (caller: Caller, query: UserSearch) => searchUsers(db, caller, query),
    get: (caller: Caller, userId: number) => userDetail(db, requireAdmin(caller), userId),
    superAdmin: (caller: Caller, userId: number, input: { change: 'grant' | 'take'; reason: string }) =>
      changeSuperAdmin(deps, caller, userId, input),
    suspend: (caller: Caller, userId: number, reason: string) =>
      changeStatus(deps, caller, userId, { ...statusChanges.suspend, reason }),
    unsuspend: (caller: Caller, userId: number, reason?: string) =>
      changeStatus(deps, caller, userId, { ...statusChanges.unsuspend, reason }),
    delete: (caller: Caller, userId: number, reason: string) =>
      changeStatus(deps, caller, userId, { ...statusChanges.delete, reason }),
    resetPassword: (caller: Caller, userId: number, reason?: string) =>
      mailResetLink(deps, caller, userId, reason),
  }
}
export type AdminUsersService = ReturnType<typeof createAdminUsersService>
