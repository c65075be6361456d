import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError, notFound } from '#server/api/errors.ts'
import { rateFreelancer } from '../profiles/listing.ts'
import { REVIEW_HIDDEN_DAYS } from './rules.ts'
import {
  conflict,
  lockRow,
  notify,
  recordActivity,
  recordEffects,
  type Effect,
  type Trx,
} from './transition.ts'
import { DAY, nowIso, type ContractRow } from './shared.ts'
import type { ProjectViews } from './views.ts'
import { createReviewLists, review } from './review-lists.ts'
import { pointRules } from '../identity/rules.ts'

// Reviews of a completed contract, one by each side. A review stays hidden until both have written
// or REVIEW_HIDDEN_DAYS have passed, so neither answers the other's rating; ratings and the
// five-star points count visible reviews only.

/** The outbox topic of the timer after which a lone review shows. */
export const REVIEW_TOPIC = 'projects.review-visible'

/** A user's rating from the visible reviews about them. */
export async function recomputeRating(executor: DB, dialect: Dialect, userId: number) {
  const agg = await executor
    .selectFrom('review')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.avg<number>('rating').as('avg')])
    .where('subject_id', '=', userId)
    .where('visible_from', '<=', nowIso())
    .executeTakeFirst()
  const count = Number(agg?.n ?? 0)
  const avg = count ? Number(agg?.avg ?? 0) : 0
  await rateFreelancer(executor, dialect, userId, { average: avg, count })
}

/**
 * wengazPoint for five-star reviews of a contract, once each review is visible: awarding a hidden
 * one would tell its subject the rating before they have written theirs. Idempotent.
 */
export async function awardReviewPoints(executor: DB, contractId: number) {
  const now = nowIso()
  const rows = await executor
    .selectFrom('review')
    .select(['id', 'subject_id'])
    .where('contract_id', '=', contractId)
    .where('rating', '=', 5)
    .where('visible_from', '<=', now)
    .execute()
  for (const r of rows) {
    await executor
      .insertInto('wengaz_point_event')
      .values({
        user_id: r.subject_id,
        reason: 'five-star-review',
        ref: String(r.id),
        points: pointRules.fiveStarReview,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['user_id', 'reason', 'ref']).doNothing())
      .execute()
  }
}

const reviewedAlready = (executor: DB, contractId: number, authorId: number) =>
  executor
    .selectFrom('review')
    .select('id')
    .where('contract_id', '=', contractId)
    .where('author_id', '=', authorId)
    .executeTakeFirst()

type Written = { contract: ContractRow; author: number; subject: number; rating: number; body: string }

/** Stores the review in the caller's transaction; the first of the two stays hidden, the second shows both. */
async function storeReview(trx: Trx, dialect: Dialect, { contract, author, subject, rating, body }: Written) {
  await lockRow(trx, dialect, 'contract', contract.id)
  if (await reviewedAlready(trx, contract.id, author))
    throw conflict('You have already reviewed this contract')
  const now = nowIso()
  const other = await reviewedAlready(trx, contract.id, subject)
  const created = await trx
    .insertInto('review')
    .values({
      contract_id: contract.id,
      project_id: contract.project_id,
      author_id: author,
      subject_id: subject,
      rating,
      body,
      created_at: now,
      visible_from: other ? now : new Date(Date.now() + REVIEW_HIDDEN_DAYS * DAY).toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  if (other) await trx.updateTable('review').set({ visible_from: now }).where('id', '=', other.id).execute()
  await recordActivity(trx, contract.project_id, author, 'review', created.id, 'review', 'completed')
  await awardReviewPoints(trx, contract.id)
  await recomputeRating(trx, dialect, contract.client_id)
  await recomputeRating(trx, dialect, contract.freelancer_id)
  // When the other side never writes, the review shows after 14 days: a timer recomputes the ratings then.
  const effects: Effect[] = [notify([subject], 'reviewReceived', contract.project_id, 'Project', {})]
  if (!other)
    effects.push({
      topic: REVIEW_TOPIC,
      payload: { userIds: [contract.client_id, contract.freelancer_id], contractId: contract.id },
      delayMs: REVIEW_HIDDEN_DAYS * DAY + 1000,
    })
  await recordEffects(trx, effects)
  return created.id
}

type ReviewDeps = { db: DB; dialect: Dialect; views: Pick<ProjectViews, 'people'> }

async function writeReview(
  deps: ReviewDeps,
  caller: Caller,
  contractId: number,
  rating: number,
  body: string,
) {
  const { db, dialect } = deps
  const contract = await db.selectFrom('contract').selectAll().where('id', '=', contractId).executeTakeFirst()
  if (!contract || (contract.client_id !== caller.userId && contract.freelancer_id !== caller.userId))
    throw notFound('Contract')
  if (contract.status !== 'completed')
    throw conflict(`The contract is ${contract.status}; reviews open when it is completed`, contract.status)
  const subject = contract.client_id === caller.userId ? contract.freelancer_id : contract.client_id
  const written = { contract, author: caller.userId, subject, rating, body }
  let id: number
  try {
    id = await db.transaction().execute((trx) => storeReview(trx, dialect, written))
  } catch (error) {
    if (error instanceof ApiError) throw error
    // Two reviews at the same moment: the unique (contract, author) key let one in.
    if (await reviewedAlready(db, contractId, caller.userId))
      throw conflict('You have already reviewed this contract')
    throw error
  }
  return review(deps, id, caller)
}

export function createReviews(deps: ReviewDeps) {
  const lists = createReviewLists(deps)
  return {
    writeReview: writeReview.bind(null, deps),
    reviews: lists.reviews,
    publicReviews: lists.publicReviews,
    recomputeRating: (executor: DB, userId: number) => recomputeRating(executor, deps.dialect, userId),
    awardReviewPoints,
  }
}
