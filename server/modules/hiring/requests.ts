import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Locale } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError, badRequest, notFound } from '#server/api/errors.ts'
import { requireFinder } from '../profiles/access.ts'
import { liveStates, MAX_LIVE_REQUESTS, type HiringRequest, type HiringRequestInput } from './contract.ts'
import { clientPicks, requestRows, summaryOf, type Executor, type Hits } from './views.ts'

// The client's side of hiring with Workneer's help (decision 338): only those who hire ask; at most
// three live requests each; every request is its author's alone (404 to anyone else).

export type Deps = { db: DB; dialect: Dialect; hits: Hits }
type PageQuery = { page: number; pageSize: number }

const nowIso = () => new Date().toISOString()

/** A refusal naming the state the request is in (the UI decides on the code). */
export const wrongState = (state: string) =>
  new ApiError(409, 'Conflict', `The request is ${state}`, { state: [state] }, 'hiring_request_closed')

async function detail(db: Executor, hits: Hits, clientId: number, id: number, locale: Locale) {
  const row = await requestRows(db)
    .where('h.id', '=', id)
    .where('h.client_id', '=', clientId)
    .executeTakeFirst()
  if (!row) throw notFound('Hiring request')
  return { ...summaryOf(row), proposed: await clientPicks(db, hits, id, locale) } satisfies HiringRequest
}

async function create(
  { db, dialect, hits }: Deps,
  caller: Caller,
  locale: Locale,
  input: HiringRequestInput,
) {
  requireFinder(caller)
  const id = await db.transaction().execute(async (trx) => {
    // One client's requests are counted under a lock on their account, so two at once cannot both pass.
    let me = trx.selectFrom('app_user').select('id').where('id', '=', caller.userId)
    if (dialect === 'postgres') me = me.forUpdate()
    await me.executeTakeFirst()
    const live = await trx
      .selectFrom('hiring_request')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('client_id', '=', caller.userId)
      .where('state', 'in', liveStates)
      .executeTakeFirstOrThrow()
    if (Number(live.n) >= MAX_LIVE_REQUESTS)
      throw new ApiError(
        409,
        'Conflict',
        `At most ${MAX_LIVE_REQUESTS} requests can be open at once`,
        undefined,
        'hiring_requests_limit',
      )
    if (input.projectId !== undefined) {
      const project = await trx
        .selectFrom('project')
        .select('id')
        .where('id', '=', input.projectId)
        .where('client_id', '=', caller.userId)
        .where('status', '=', 'open')
        .executeTakeFirst()
      if (!project) throw badRequest('projectId', 'shortlist:hiring.errors.project')
    }
    const now = nowIso()
    const row = await trx
      .insertInto('hiring_request')
      .values({
        client_id: caller.userId,
        project_id: input.projectId ?? null,
        need: input.need,
        budget_min_minor: input.budgetMinMinor,
        budget_max_minor: input.budgetMaxMinor ?? input.budgetMinMinor,
        currency: input.currency,
        deadline: input.deadline,
        state: 'open',
        assignee_id: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  })
  return detail(db, hits, caller.userId, id, locale)
}

async function list({ db }: Deps, caller: Caller, query: PageQuery) {
  requireFinder(caller)
  const rows = await requestRows(db)
    .where('h.client_id', '=', caller.userId)
    .orderBy('h.id', 'desc')
    .offset((query.page - 1) * query.pageSize)
    .limit(query.pageSize)
    .execute()
  const total = await db
    .selectFrom('hiring_request')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('client_id', '=', caller.userId)
    .executeTakeFirstOrThrow()
  return { data: rows.map(summaryOf), page: query.page, pageSize: query.pageSize, total: Number(total.n) }
}

/** The client ends a live request: cancelled, or done once they have what they needed. */
async function end(deps: Deps, caller: Caller, id: number, locale: Locale, to: 'cancelled' | 'done') {
  await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('hiring_request')
      .select('state')
      .where('id', '=', id)
      .where('client_id', '=', caller.userId)
      .executeTakeFirst()
    if (!row) throw notFound('Hiring request')
    if (!(liveStates as readonly string[]).includes(row.state)) throw wrongState(row.state)
    await trx
      .updateTable('hiring_request')
      .set({ state: to, updated_at: nowIso() })
      .where('id', '=', id)
      .where('state', '=', row.state)
      .execute()
  })
  return detail(deps.db, deps.hits, caller.userId, id, locale)
}

export function createHiringRequests(deps: Deps) {
  return {
    create: (c: Caller, locale: Locale, input: HiringRequestInput) => create(deps, c, locale, input),
    list: (c: Caller, q: PageQuery) => list(deps, c, q),
    get: (c: Caller, id: number, locale: Locale) => detail(deps.db, deps.hits, c.userId, id, locale),
    cancel: (c: Caller, id: number, locale: Locale) => end(deps, c, id, locale, 'cancelled'),
    done: (c: Caller, id: number, locale: Locale) => end(deps, c, id, locale, 'done'),
  }
}
