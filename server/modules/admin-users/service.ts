import { sql, type ExpressionBuilder, type Kysely } from 'kysely'
import type { Database, UserStatus } from '../../db/schema.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import type { Caller } from '../../api/handler.ts'
import { ApiError, forbidden, notFound } from '../../api/errors.ts'
import { Role } from '../identity/permissions.ts'
import type { IdentityService } from '../identity/service.ts'
import { listAdminActions, recordAdminAction } from '../complaints/audit.ts'
import type { AdminUserDetail, AdminUserSummary } from './contract.ts'
import { erasePersonalData } from './erase.ts'
import { personName } from '../identity/display-name.ts'
import { adminUserLimits, type UserSearch } from './rules.ts'

type Db = Kysely<Database>
const OBJECT = 'user'
// LIKE's own wildcards in what the admin typed match themselves.
const likeText = (words: string) => `%${words.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The account's last sign-in (the newest session it started), as `last_active`. */
const lastSignIn = (eb: ExpressionBuilder<Database & { u: Database['app_user'] }, 'u'>) =>
  eb
    .selectFrom('user_session as s')
    .select((e) => e.fn.max('s.created_at').as('at'))
    .whereRef('s.user_id', '=', 'u.id')
    .as('last_active')

function conflict(detail: string, field: string, message: string) {
  return new ApiError(409, 'Conflict', detail, { [field]: [message] })
}

/**
 * The admin's users (issue 18 item 3): search, one account, suspend, reactivate, delete, a reset
 * mail. Each change runs in one transaction with its audit row (decision 214); status changes go
 * through identity's setStatus, which ends sessions and, after commit, hub connections.
 */
export function createAdminUsersService({
  db,
  dialect,
  identity,
}: {
  db: Db
  dialect: Dialect
  identity: Pick<IdentityService, 'setStatus' | 'mailPasswordReset' | 'rolesChanged'>
}) {
  function requireAdmin(caller: Caller) {
    if (!caller.roles.includes(Role.SuperAdmin)) throw forbidden()
    return caller.userId
  }

  const rolesOf = async (ids: number[]) => {
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

  async function search(caller: Caller, query: UserSearch) {
    requireAdmin(caller)
    let q = db.selectFrom('app_user as u')
    if (query.q) {
      const like = likeText(query.q)
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(u.first_name || ' ' || u.last_name)`, 'like', sql`${like} escape '\\'`),
          eb(sql`lower(u.email)`, 'like', sql`${like} escape '\\'`),
          eb(sql`lower(coalesce(u.company_name, ''))`, 'like', sql`${like} escape '\\'`),
        ]),
      )
    }
    if (query.role)
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('user_role as r')
            .select('r.user_id')
            .whereRef('r.user_id', '=', 'u.id')
            .where('r.role', '=', query.role!),
        ),
      )
    if (query.status) q = q.where('u.status', '=', query.status)
    const total = Number(
      (await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n,
    )
    const rows = await q
      .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.status', 'u.created_at'])
      .select(lastSignIn)
      .orderBy('u.id', 'desc')
      .offset((query.page - 1) * adminUserLimits.pageSize)
      .limit(adminUserLimits.pageSize)
      .execute()
    const roles = await rolesOf(rows.map((r) => r.id))
    const data: AdminUserSummary[] = rows.map((r) => ({
      id: r.id,
      name: personName(r),
      email: r.email,
      roles: roles.get(r.id) ?? [],
      status: r.status,
      createdAt: r.created_at,
      lastActiveAt: (r.last_active as string | null) ?? null,
    }))
    return { data, page: query.page, pageSize: adminUserLimits.pageSize, total }
  }

  /** Whether suspending or deleting `userId` would lock the platform out: oneself, or the last active SuperAdmin. */
  async function lockoutOf(executor: Db, adminId: number, userId: number, roles: number[]) {
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

  async function detail(adminId: number, userId: number): Promise<AdminUserDetail> {
    const u = await db
      .selectFrom('app_user as u')
      .selectAll('u')
      .select(lastSignIn)
      .where('u.id', '=', userId)
      .executeTakeFirst()
    if (!u) throw notFound('User')
    const roles = (await rolesOf([userId])).get(userId) ?? []
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
    const counts = {
      projects: await count('project', (eb) => eb('client_id', '=', userId)),
      proposals: await count('proposal', (eb) => eb('freelancer_id', '=', userId)),
      contracts: await count('contract', (eb) =>
        eb.or([eb('client_id', '=', userId), eb('freelancer_id', '=', userId)]),
      ),
    }
    const profilePath =
      u.status !== 'Active'
        ? null
        : roles.includes(Role.Freelancer)
          ? `/profiles/freelancers/${userId}`
          : roles.includes(Role.Company)
            ? `/profiles/companies/${userId}`
            : roles.includes(Role.Client)
              ? `/profiles/clients/${userId}`
              : null
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
      counts,
      profilePath,
      lockout: u.status === 'Deleted' ? null : await lockoutOf(db, adminId, userId, roles),
      audit: await listAdminActions(db, { objectType: OBJECT, objectId: userId, pageSize: 100 }),
    }
  }

  /**
   * One lock for every check that the platform keeps a SuperAdmin, taken first in the transaction
   * (before any row lock, or the audit row's key check on the actor could deadlock with another
   * transaction). SQLite's write transaction serialises these by itself.
   */
  async function lockAdmins(trx: Db) {
    if (dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext('workneer:superadmins'))`.execute(trx)
  }

  /**
   * Grants or takes the SuperAdmin role of another active account (decision 265): never one's own,
   * never the last active SuperAdmin's, with a reason, audited; the account's sessions end
   * (identity.rolesChanged), so its next sign-in has the new rights, and a new SuperAdmin must set
   * up two-factor sign-in then (decision 260). The caller is checked again inside the transaction:
   * an admin whose own role was taken a moment ago acts no more.
   */
  async function superAdmin(
    caller: Caller,
    userId: number,
    input: { change: 'grant' | 'take'; reason: string },
  ) {
    const adminId = requireAdmin(caller)
    if (userId === adminId) throw conflict('You cannot change your own roles', 'userId', 'errors.self')
    await db.transaction().execute(async (trx) => {
      await lockAdmins(trx as unknown as Db)
      const rolesOfUser = async (id: number) =>
        (await trx.selectFrom('user_role').select('role').where('user_id', '=', id).execute()).map(
          (r) => r.role,
        )
      if (!(await rolesOfUser(adminId)).includes(Role.SuperAdmin)) throw forbidden()
      const user = await trx
        .selectFrom('app_user')
        .select('status')
        .where('id', '=', userId)
        .executeTakeFirst()
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
    return detail(adminId, userId)
  }

  /** One audited change of an account's status, refused when it would lock the platform out or the account is not in `from`. */
  async function changeStatus(
    caller: Caller,
    userId: number,
    change: {
      action: 'suspend' | 'unsuspend' | 'delete'
      from: UserStatus[]
      to: 'Active' | 'Suspended' | 'Deleted'
      reason?: string
      locks: boolean
    },
  ) {
    const adminId = requireAdmin(caller)
    await db.transaction().execute(async (trx) => {
      // Two admins suspending each other at once must not leave none (lockAdmins).
      if (change.locks) await lockAdmins(trx as unknown as Db)
      let q = trx.selectFrom('app_user').select(['id', 'status']).where('id', '=', userId)
      if (dialect === 'postgres') q = q.forUpdate()
      const user = await q.executeTakeFirst()
      if (!user) throw notFound('User')
      if (change.locks) {
        const roles = (
          await trx.selectFrom('user_role').select('role').where('user_id', '=', userId).execute()
        ).map((r) => r.role)
        const lock = await lockoutOf(trx as unknown as Db, adminId, userId, roles)
        if (lock === 'self') throw conflict('You cannot do this to your own account', 'userId', 'errors.self')
        if (lock === 'lastAdmin')
          throw conflict('This is the last active SuperAdmin', 'userId', 'errors.lastAdmin')
      }
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
    return detail(adminId, userId)
  }

  return {
    search,
    get: (caller: Caller, userId: number) => detail(requireAdmin(caller), userId),
    superAdmin,
    suspend: (caller: Caller, userId: number, reason: string) =>
      changeStatus(caller, userId, {
        action: 'suspend',
        from: ['Active', 'Pending'],
        to: 'Suspended',
        reason,
        locks: true,
      }),
    unsuspend: (caller: Caller, userId: number, reason?: string) =>
      changeStatus(caller, userId, {
        action: 'unsuspend',
        from: ['Suspended'],
        to: 'Active',
        reason,
        locks: false,
      }),
    delete: (caller: Caller, userId: number, reason: string) =>
      changeStatus(caller, userId, {
        action: 'delete',
        from: ['Active', 'Pending', 'Suspended'],
        to: 'Deleted',
        reason,
        locks: true,
      }),
    async resetPassword(caller: Caller, userId: number, reason?: string) {
      const adminId = requireAdmin(caller)
      await db.transaction().execute(async (trx) => {
        const user = await trx
          .selectFrom('app_user')
          .select('status')
          .where('id', '=', userId)
          .executeTakeFirst()
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
      return detail(adminId, userId)
    },
  }
}
export type AdminUsersService = ReturnType<typeof createAdminUsersService>
