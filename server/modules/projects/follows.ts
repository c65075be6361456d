import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { visibleProject } from './access.ts'
import { nowIso, offsetOf, pageOf, type PageQuery, type ProjectRow } from './shared.ts'
import type { ProjectViews } from './views.ts'

// A user's marks on projects they do not own: the wishlist (saved to come back to) and follows
// (subscriptions: they hear of its questions and of its end).

type Mark = 'project_wishlist' | 'project_subscription'

type FollowDeps = { db: DB; views: Pick<ProjectViews, 'summaries'> }

async function mark(db: DB, table: Mark, caller: Caller, id: number, on: boolean) {
  await visibleProject(db, caller, id)
  if (on)
    await db
      .insertInto(table)
      .values({ user_id: caller.userId, project_id: id, created_at: nowIso() })
      .onConflict((oc) => oc.columns(['user_id', 'project_id']).doNothing())
      .execute()
  else await db.deleteFrom(table).where('user_id', '=', caller.userId).where('project_id', '=', id).execute()
  return { ok: true as const }
}

async function wishlist(deps: FollowDeps, caller: Caller, query: PageQuery, locale: Locale) {
  const { db, views } = deps
  const q = db
    .selectFrom('project_wishlist as w')
    .innerJoin('project as p', 'p.id', 'w.project_id')
    .where('w.user_id', '=', caller.userId)
    .where((eb) => eb.or([eb('p.status', '!=', 'draft'), eb('p.client_id', '=', caller.userId)]))
    // A project made invite-only since it was saved stays only for those it still shows to (decision 335).
    .where((eb) =>
      eb.or([
        eb('p.visibility', '!=', 'invited'),
        eb('p.client_id', '=', caller.userId),
        eb.exists(
          eb
            .selectFrom('project_invitation as i')
            .select('i.id')
            .whereRef('i.project_id', '=', 'p.id')
            .where('i.freelancer_id', '=', caller.userId)
            .where('i.status', '!=', 'declined'),
        ),
      ]),
    )
  const [rows, total] = await Promise.all([
    q.selectAll('p').orderBy('w.created_at', 'desc').offset(offsetOf(query)).limit(query.pageSize).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  return pageOf(await views.summaries(rows as ProjectRow[], locale), query, total?.n)
}

/** The ids among `ids` that the caller has saved; a list page marks its Save buttons with them. */
async function savedAmong({ db }: FollowDeps, caller: Caller, ids: number[]) {
  if (!ids.length) return { data: [] }
  const rows = await db
    .selectFrom('project_wishlist')
    .select('project_id')
    .where('user_id', '=', caller.userId)
    .where('project_id', 'in', ids)
    .execute()
  return { data: rows.map((r) => r.project_id) }
}

export function createFollows(deps: FollowDeps) {
  const { db } = deps
  return {
    wishlist: wishlist.bind(null, deps),
    savedAmong: savedAmong.bind(null, deps),
    addWish: (c: Caller, id: number) => mark(db, 'project_wishlist', c, id, true),
    removeWish: (c: Caller, id: number) => mark(db, 'project_wishlist', c, id, false),
    subscribe: (c: Caller, id: number) => mark(db, 'project_subscription', c, id, true),
    unsubscribe: (c: Caller, id: number) => mark(db, 'project_subscription', c, id, false),
  }
}
