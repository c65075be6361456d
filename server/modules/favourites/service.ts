import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { Role } from '../identity/permissions.ts'
import { requireFinder } from '../profiles/access.ts'
import type { SearchHit } from '../profiles/contract.ts'

// Saved freelancers (decision 336). The rows are the saver's alone; a freelancer whose account is
// no longer active drops out of the list (and its count) without losing the row, so they come back
// if the account does. Saving tells the freelancer nothing.

type Deps = { db: DB; hits: (ids: number[], locale: Locale) => Promise<SearchHit[]> }
type PageQuery = { page: number; pageSize: number }

const nowIso = () => new Date().toISOString()

/** The saved rows of active freelancers only. */
const savedOf = (db: DB, caller: Caller) =>
  db
    .selectFrom('freelancer_favourite as f')
    .innerJoin('app_user as u', 'u.id', 'f.freelancer_id')
    .where('f.user_id', '=', caller.userId)
    .where('u.status', '=', 'Active')

async function list({ db, hits }: Deps, caller: Caller, locale: Locale, query: PageQuery) {
  requireFinder(caller)
  const q = savedOf(db, caller)
  const [rows, total] = await Promise.all([
    q
      .select('f.freelancer_id')
      .orderBy('f.created_at', 'desc')
      .orderBy('f.freelancer_id', 'desc')
      .offset((query.page - 1) * query.pageSize)
      .limit(query.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  return {
    data: await hits(
      rows.map((r) => r.freelancer_id),
      locale,
    ),
    page: query.page,
    pageSize: query.pageSize,
    total: Number(total?.n ?? 0),
  }
}

async function among({ db }: Deps, caller: Caller, ids: number[]) {
  requireFinder(caller)
  if (!ids.length) return { data: [] }
  const rows = await db
    .selectFrom('freelancer_favourite')
    .select('freelancer_id')
    .where('user_id', '=', caller.userId)
    .where('freelancer_id', 'in', ids)
    .execute()
  return { data: rows.map((r) => r.freelancer_id) }
}

/** An active freelancer's account, or 404 (anyone else is not a freelancer to save). */
async function requireFreelancer(db: DB, userId: number) {
  const found = await db
    .selectFrom('app_user as u')
    .innerJoin('user_role as r', 'r.user_id', 'u.id')
    .select('u.id')
    .where('u.id', '=', userId)
    .where('u.status', '=', 'Active')
    .where('r.role', '=', Role.Freelancer)
    .executeTakeFirst()
  if (!found) throw notFound('Freelancer')
}

async function add({ db }: Deps, caller: Caller, freelancerId: number) {
  requireFinder(caller)
  await requireFreelancer(db, freelancerId)
  await db
    .insertInto('freelancer_favourite')
    .values({ user_id: caller.userId, freelancer_id: freelancerId, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['user_id', 'freelancer_id']).doNothing())
    .execute()
  return { ok: true as const }
}

async function remove({ db }: Deps, caller: Caller, freelancerId: number) {
  requireFinder(caller)
  await db
    .deleteFrom('freelancer_favourite')
    .where('user_id', '=', caller.userId)
    .where('freelancer_id', '=', freelancerId)
    .execute()
  return { ok: true as const }
}

export function createFavourites(deps: Deps) {
  return {
    list: (c: Caller, locale: Locale, q: PageQuery) => list(deps, c, locale, q),
    among: (c: Caller, ids: number[]) => among(deps, c, ids),
    add: (c: Caller, id: number) => add(deps, c, id),
    remove: (c: Caller, id: number) => remove(deps, c, id),
  }
}

export type Favourites = ReturnType<typeof createFavourites>
