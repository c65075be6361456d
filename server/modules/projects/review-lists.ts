import type { Selectable } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Database } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { newestRows, nowIso, offsetOf, type PageQuery } from './shared.ts'
import { nobody, type ProjectViews } from './views.ts'

// What the review pages show: the visible reviews about a user with their average, and for the
// user themself also the reviews they wrote that are still hidden and the contracts left to review.

type ReviewRow = Selectable<Database['review']>

const average = (agg: { n: unknown; avg: unknown } | undefined) => {
  const count = Number(agg?.n ?? 0)
  return { count, average: count ? Math.round(Number(agg?.avg ?? 0) * 100) / 100 : 0 }
}

type ReviewListDeps = {
  db: DB
  views: Pick<ProjectViews, 'people'>
}

async function reviewsOut(deps: ReviewListDeps, rows: ReviewRow[], caller: Caller | null) {
  const { db, views } = deps
  const [users, projects] = await Promise.all([
    views.people(rows.flatMap((r) => [r.author_id, r.subject_id])),
    rows.length
      ? db
          .selectFrom('project')
          .select(['id', 'title'])
          .where(
            'id',
            'in',
            rows.map((r) => r.project_id),
          )
          .execute()
      : [],
  ])
  const title = new Map(projects.map((p) => [p.id, p.title]))
  const now = nowIso()
  return rows.map((r) => {
    const visible = r.visible_from <= now
    // A hidden review is shown to its author only.
    const shown = visible || r.author_id === caller?.userId
    return {
      id: r.id,
      projectId: r.project_id,
      projectTitle: title.get(r.project_id) ?? '',
      author: users.get(r.author_id) ?? nobody(r.author_id),
      subject: users.get(r.subject_id) ?? nobody(r.subject_id),
      rating: shown ? r.rating : 0,
      body: shown ? r.body : '',
      createdAt: r.created_at,
      visible,
    }
  })
}

/** One review as the API shows it to the caller. */
export const review = async (deps: ReviewListDeps, id: number, caller: Caller) =>
  (
    await reviewsOut(
      deps,
      [await deps.db.selectFrom('review').selectAll().where('id', '=', id).executeTakeFirstOrThrow()],
      caller,
    )
  )[0]

/** What a public profile shows: only visible reviews about the user, newest first, and their average. */
async function publicReviews(deps: ReviewListDeps, userId: number, query: PageQuery) {
  const { db } = deps
  const q = db.selectFrom('review').where('subject_id', '=', userId).where('visible_from', '<=', nowIso())
  const [rows, agg] = await Promise.all([
    newestRows(q, query),
    q
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.avg<number>('rating').as('avg')])
      .executeTakeFirst(),
  ])
  const { count, average: avg } = average(agg)
  return {
    data: await reviewsOut(deps, rows, null),
    page: query.page,
    pageSize: query.pageSize,
    total: count,
    average: avg,
    count,
  }
}

/** Completed contracts of the caller's that they have not reviewed yet, with the other party. */
async function toWrite(deps: ReviewListDeps, caller: Caller) {
  const { db, views } = deps
  const open = await db
    .selectFrom('contract as c')
    .innerJoin('project as p', 'p.id', 'c.project_id')
    .select(['c.id', 'c.project_id', 'p.title', 'c.client_id', 'c.freelancer_id'])
    .where('c.status', '=', 'completed')
    .where((eb) => eb.or([eb('c.client_id', '=', caller.userId), eb('c.freelancer_id', '=', caller.userId)]))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('review as r')
            .select('r.id')
            .whereRef('r.contract_id', '=', 'c.id')
            .where('r.author_id', '=', caller.userId),
        ),
      ),
    )
    .execute()
  const otherOf = (c: (typeof open)[number]) =>
    c.client_id === caller.userId ? c.freelancer_id : c.client_id
  const users = await views.people(open.map(otherOf))
  return open.map((c) => ({
    contractId: c.id,
    projectId: c.project_id,
    projectTitle: c.title,
    subject: users.get(otherOf(c)) ?? nobody(otherOf(c)),
  }))
}

/** The reviews page: the visible reviews about a user; for the caller themself also their hidden ones and what is left to write. */
async function reviews(deps: ReviewListDeps, caller: Caller, query: PageQuery & { userId?: number }) {
  const { db } = deps
  const userId = query.userId ?? caller.userId
  const own = userId === caller.userId
  const now = nowIso()
  const q = db.selectFrom('review').where('subject_id', '=', userId).where('visible_from', '<=', now)
  const [rows, agg, written, left] = await Promise.all([
    q.selectAll().orderBy('created_at', 'desc').offset(offsetOf(query)).limit(query.pageSize).execute(),
    q
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.avg<number>('rating').as('avg')])
      .executeTakeFirst(),
    own
      ? db
          .selectFrom('review')
          .selectAll()
          .where('author_id', '=', caller.userId)
          .where('visible_from', '>', now)
          .execute()
      : [],
    own ? toWrite(deps, caller) : [],
  ])
  const { count, average: avg } = average(agg)
  return {
    data: await reviewsOut(deps, [...written, ...rows], caller),
    page: query.page,
    pageSize: query.pageSize,
    total: count,
    average: avg,
    count,
    toWrite: left,
  }
}

export function createReviewLists(deps: ReviewListDeps) {
  return {
    review: review.bind(null, deps),
    publicReviews: publicReviews.bind(null, deps),
    reviews: reviews.bind(null, deps),
  }
}
