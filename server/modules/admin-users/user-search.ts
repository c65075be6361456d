import { sql } from 'kysely'
import type { Caller } from '#server/api/handler.ts'
import { personName } from '../identity/display-name.ts'
import type { AdminUserSummary } from './contract.ts'
import { adminUserLimits, type UserSearch } from './rules.ts'
import { lastSignIn, requireAdmin, rolesOf, type Db } from './shared.ts'

// LIKE's own wildcards in what the admin typed match themselves.
const likeText = (words: string) => `%${words.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The admin's list of accounts: words of a name, an email or a company, a role, a status; newest first. */
export async function searchUsers(db: Db, caller: Caller, query: UserSearch) {
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
  const roles = await rolesOf(
    db,
    rows.map((r) => r.id),
  )
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
