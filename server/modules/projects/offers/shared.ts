import type { Selectable } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Database } from '#server/db/schema.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError, notFound } from '#server/api/errors.ts'
import type { ProjectSearchIndex } from '../search-index.ts'
import type { ChatService } from '../../chat/service.ts'
import type { ProjectViews } from '../views.ts'
import type { Trx } from '../transition.ts'
import type { OfferState } from './contract.ts'

// What the offers' use cases share: their dependencies, the row, its state as of now and the
// refusals with their stable codes (decision 342).

export type OfferRow = Selectable<Database['direct_offer']>
export type OfferDeps = {
  db: DB
  dialect: Dialect
  chat: Pick<ChatService, 'openRoom'>
  index: ProjectSearchIndex
  views: Pick<ProjectViews, 'people' | 'summaries'>
}

/** The expiry timer's topic: the offer turns `expired` and its project is cancelled, unless it was answered first. */
export const OFFER_EXPIRY_TOPIC = 'projects.offer-expiry'

/** A pending offer past its time is expired, whether or not the timer has written it yet. */
export const stateOf = (row: Pick<OfferRow, 'status' | 'expires_at'>, now = new Date().toISOString()) =>
  (row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status) as OfferState

/** An offer that is no longer pending: 409 naming its state. */
export const closed = (state: string) =>
  state === 'expired'
    ? new ApiError(409, 'Conflict', 'The offer has expired', { state: [state] }, 'offer_expired')
    : new ApiError(
        409,
        'Conflict',
        `The offer is ${state}; it changes no more`,
        { state: [state] },
        'offer_closed',
      )

const isParty = (row: OfferRow, userId: number, side?: 'client' | 'freelancer') =>
  side === 'client'
    ? row.client_id === userId
    : side === 'freelancer'
      ? row.freelancer_id === userId
      : row.client_id === userId || row.freelancer_id === userId

/** The offer, read by one of its two parties (anyone else is told it does not exist). */
export async function offerOf(
  executor: DB | Trx,
  caller: Caller,
  offerId: number,
  side?: 'client' | 'freelancer',
) {
  const row = await executor
    .selectFrom('direct_offer')
    .selectAll()
    .where('id', '=', offerId)
    .executeTakeFirst()
  if (!row || !isParty(row, caller.userId, side)) throw notFound('Offer')
  return row
}

/** Locks the offer for its answer (SQLite's BEGIN IMMEDIATE already holds the write lock). */
export async function lockOffer(trx: Trx, dialect: Dialect, offerId: number) {
  let q = trx.selectFrom('direct_offer').selectAll().where('id', '=', offerId)
  if (dialect === 'postgres') q = q.forUpdate()
  return (await q.executeTakeFirst())!
}
