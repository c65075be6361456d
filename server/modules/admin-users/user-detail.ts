import { notFound } from '#server/api/errors.ts'
import { Role } from '../identity/permissions.ts'
import { personName } from '../identity/display-name.ts'
import { listAdminActions } from '../complaints/audit.ts'
import type { AdminUserDetail } from './contract.ts'
import { lastSignIn, lockoutOf, OBJECT, rolesOf, type Db } from './shared.ts'

/** How much marketplace activity the account has: its projects, proposals and contracts. */
async function activityCounts(db: Db, userId: number) {
  const count = async (table: 'project' | 'proposal' | 'contract', where: (eb: any) => any) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where(where)
          .executeTakeFirstOrThrow()
      ).n,
    )
  return {
    projects: await count('project', (eb) => eb('client_id', '=', userId)),
    proposals: await count('proposal', (eb) => eb('freelancer_id', '=', userId)),
    contracts: await count('contract', (eb) =>
      eb.or([eb('client_id', '=', userId), eb('freelancer_id', '=', userId)]),
    ),
  }
}

/** The public page of an active account's profile, if it has one. */
function profilePathOf(userId: number, status: string, roles: number[]) {
  if (status !== 'Active') return null
  if (roles.includes(Role.Freelancer)) return `/profiles/freelancers/${userId}`
  if (roles.includes(Role.Company)) return `/profiles/companies/${userId}`
  if (roles.includes(Role.Client)) return `/profiles/clients/${userId}`
  return null
}

/** One account as the admin sees it, with its activity, whether acting on it would lock the platform out, and its audit trail. */
export async function userDetail(db: Db, adminId: number, userId: number): Promise<AdminUserDetail> {
  const u = await db
    .selectFrom('app_user as u')
    .selectAll('u')
    .select(lastSignIn)
    .where('u.id', '=', userId)
    .executeTakeFirst()
  if (!u) throw notFound('User')
  const roles = (await rolesOf(db, [userId])).get(userId) ?? []
  return {
    id: u.id,
    name: personName(u),
    email: u.email,
    roles,
    status: u.status,
    createdAt: u.created_at,
    lastActiveAt: (u.last_active as string | null) ?? null,
    accountType: u.account_type,
    companyName: u.company_name,
    phoneNumber: u.phone_number,
    emailVerified: u.email_verified === 1,
    provider: u.provider,
    updatedAt: u.updated_at,
    counts: await activityCounts(db, userId),
    profilePath: profilePathOf(userId, u.status, roles),
    lockout: u.status === 'Deleted' ? null : await lockoutOf(db, adminId, userId, roles),
    audit: await listAdminActions(db, { objectType: OBJECT, objectId: userId, pageSize: 100 }),
  }
}
