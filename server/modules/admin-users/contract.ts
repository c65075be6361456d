import { z } from 'zod'
import { endpoint, recordId, shownName } from '#server/api/contract.ts'
import { auditEntry } from '../complaints/contract.ts'
import {
  deleteSchema,
  reactivateSchema,
  resetSchema,
  superAdminSchema,
  suspendSchema,
  userSearchQuery,
  userStatuses,
} from './rules.ts'

// The admin's users (issue 18 item 3; docs/product.md §7 "Admin/* endpoints for users (search, suspend,
// unsuspend, delete)"). SuperAdmin only (decision 220); every change is audited (decision 214).
// What a deletion erases and what others still see: decision 236.
const tag = 'Admin'
const id = recordId
const params = z.object({ userId: id })

export const adminUserSummary = z.object({
  id: z.number(),
  name: shownName,
  email: z.string(),
  roles: z.array(z.number()),
  status: z.enum(userStatuses),
  createdAt: z.string(),
  /** The last sign-in (a session started), if any. */
  lastActiveAt: z.string().nullable(),
})
export type AdminUserSummary = z.output<typeof adminUserSummary>

/** Why an action is refused before it is tried: it would lock the platform out (decision 237). */
export const lockout = z.enum(['self', 'lastAdmin']).nullable()

export const adminUserDetail = adminUserSummary.extend({
  accountType: z.string(),
  companyName: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  emailVerified: z.boolean(),
  provider: z.string(),
  updatedAt: z.string(),
  counts: z.object({ projects: z.number(), proposals: z.number(), contracts: z.number() }),
  /** The public profile page, for freelancers, clients and companies with an active account. */
  profilePath: z.string().nullable(),
  /** Set when suspending or deleting this account is refused, and why. */
  lockout,
  /** Every admin action on this account, newest first. */
  audit: z.array(auditEntry),
})
export type AdminUserDetail = z.output<typeof adminUserDetail>

const list = z.object({
  data: z.array(adminUserSummary),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
})

export const adminUsersContract = {
  search: endpoint({
    method: 'GET',
    path: 'Admin/users',
    summary: 'SuperAdmin: accounts by words of their name or email, role and status, newest first',
    tag,
    access: 'admin',
    query: userSearchQuery,
    response: list,
  }),
  get: endpoint({
    method: 'GET',
    path: 'Admin/users/{userId}',
    summary: 'SuperAdmin: one account with its counts and audit history',
    tag,
    access: 'admin',
    params,
    response: adminUserDetail,
  }),
  suspend: endpoint({
    method: 'POST',
    path: 'Admin/users/{userId}/suspend',
    summary:
      'SuperAdmin: suspend an account with a reason; its sessions and hub connections end at once; audited',
    tag,
    access: 'admin',
    params,
    body: suspendSchema,
    response: adminUserDetail,
  }),
  unsuspend: endpoint({
    method: 'POST',
    path: 'Admin/users/{userId}/unsuspend',
    summary: 'SuperAdmin: reactivate a suspended account (it may sign in again); audited',
    tag,
    access: 'admin',
    params,
    body: reactivateSchema,
    response: adminUserDetail,
  }),
  delete: endpoint({
    method: 'POST',
    path: 'Admin/users/{userId}/delete',
    summary:
      'SuperAdmin: delete an account: personal data erased, money records kept (decision 236); audited',
    tag,
    access: 'admin',
    params,
    body: deleteSchema,
    response: adminUserDetail,
  }),
  superAdmin: endpoint({
    method: 'POST',
    path: 'Admin/users/{userId}/super-admin',
    summary:
      "SuperAdmin: grant or take the SuperAdmin role of another active account, with a reason; never one's own, never the last SuperAdmin; the account's sessions end; audited (decision 265)",
    tag,
    access: 'admin',
    params,
    body: superAdminSchema,
    response: adminUserDetail,
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: 'Admin/users/{userId}/reset-password',
    summary: 'SuperAdmin: mail the user a password reset link; audited',
    tag,
    access: 'admin',
    params,
    body: resetSchema,
    response: adminUserDetail,
  }),
}
