import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { HiringRequestState } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { badRequest, notFound } from '#server/api/errors.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { listAdminActions, recordAdminAction } from '../complaints/audit.ts'
import { personName } from '../identity/display-name.ts'
import { liveStates, type AdminHiringRequest, type ProposalInput } from './contract.ts'
import { wrongState } from './requests.ts'
import { freelancers, picksOf, requestRows, summaryOf, type Executor } from './views.ts'

// Support's side of hiring with Workneer's help (decision 338): the queue, taking a request,
// proposing up to five active freelancers with notes (the client is told), closing it. Every
// change is audited in its own transaction (decision 214).

export const HIRING_NOTIFY_TOPIC = 'hiring.notify'
export interface HiringNotifyPayload {
  userId: number
  requestId: number
  count: number
}

type Deps = { db: DB; dialect: Dialect }
type QueueQuery = { state?: HiringRequestState; page: number; pageSize: number }

const nowIso = () => new Date().toISOString()
const isLive = (state: string) => (liveStates as readonly string[]).includes(state)

function adminRows(db: Executor) {
  return requestRows(db)
    .innerJoin('app_user as c', 'c.id', 'h.client_id')
    .leftJoin('app_user as a', 'a.id', 'h.assignee_id')
    .select([
      'c.first_name as c_first',
      'c.last_name as c_last',
      'c.company_name as c_company',
      'c.status as c_status',
      'a.first_name as a_first',
      'a.last_name as a_last',
      'a.status as a_status',
    ])
}
type AdminRow = NonNullable<Awaited<ReturnType<ReturnType<typeof adminRows>['executeTakeFirst']>>>

const adminSummaryOf = (r: AdminRow) => ({
  ...summaryOf(r),
  client: {
    id: r.client_id,
    name: personName({
      first_name: r.c_first,
      last_name: r.c_last,
      status: r.c_status,
      company_name: r.c_company,
    }),
  },
  assignee:
    r.assignee_id != null
      ? {
          id: r.assignee_id,
          name: personName({ first_name: r.a_first, last_name: r.a_last, status: r.a_status }),
        }
      : null,
})

async function queue({ db }: Deps, query: QueueQuery) {
  let q = adminRows(db)
  let count = db.selectFrom('hiring_request').select((eb) => eb.fn.countAll<number>().as('n'))
  if (query.state) {
    q = q.where('h.state', '=', query.state)
    count = count.where('state', '=', query.state)
  }
  // Live requests first, longest waiting first; then the closed ones, newest first.
  const rows = await q
    .orderBy((eb) => eb.case().when('h.state', 'in', liveStates).then(0).else(1).end())
    .orderBy('h.created_at', 'asc')
    .orderBy('h.id', 'asc')
    .offset((query.page - 1) * query.pageSize)
    .limit(query.pageSize)
    .execute()
  const total = await count.executeTakeFirstOrThrow()
  return {
    data: rows.map(adminSummaryOf),
    page: query.page,
    pageSize: query.pageSize,
    total: Number(total.n),
  }
}

async function detail(db: Executor, id: number, q?: string): Promise<AdminHiringRequest> {
  const row = await adminRows(db).where('h.id', '=', id).executeTakeFirst()
  if (!row) throw notFound('Hiring request')
  const picks = await picksOf(db, id)
  const names = new Map(
    (await freelancers(db, { ids: picks.map((p) => p.freelancer_id), limit: 5 })).map((f) => [f.id, f]),
  )
  return {
    ...adminSummaryOf(row),
    proposed: picks.flatMap((p) => {
      const f = names.get(p.freelancer_id)
      return f ? [{ freelancer: f, note: p.note }] : []
    }),
    candidates: await freelancers(db, { q }),
    audit: await listAdminActions(db, { objectType: 'hiring_request', objectId: id, order: 'asc' }),
  }
}

/** Locks the request for a change, or 404 (PostgreSQL; SQLite's write transaction holds the lock). */
async function locked(trx: Executor, dialect: Dialect, id: number) {
  let q = trx
    .selectFrom('hiring_request')
    .select(['id', 'state', 'client_id', 'assignee_id'])
    .where('id', '=', id)
  if (dialect === 'postgres') q = q.forUpdate()
  const row = await q.executeTakeFirst()
  if (!row) throw notFound('Hiring request')
  if (!isLive(row.state)) throw wrongState(row.state)
  return row
}

async function claim({ db, dialect }: Deps, caller: Caller, id: number) {
  await db.transaction().execute(async (trx) => {
    const row = await locked(trx, dialect, id)
    const to = row.state === 'open' ? 'claimed' : row.state
    await trx
      .updateTable('hiring_request')
      .set({ assignee_id: caller.userId, state: to, updated_at: nowIso() })
      .where('id', '=', id)
      .execute()
    await recordAdminAction(trx, {
      ...{ actorId: caller.userId, action: 'claim', objectType: 'hiring_request', objectId: id },
      ...{ fromState: row.state, toState: to },
    })
  })
  return detail(db, id)
}

async function propose({ db, dialect }: Deps, caller: Caller, id: number, input: ProposalInput) {
  await db.transaction().execute(async (trx) => {
    const row = await locked(trx, dialect, id)
    const ids = input.freelancers.map((f) => f.userId)
    const active = new Set((await freelancers(trx, { ids, limit: ids.length })).map((f) => f.id))
    const missing = ids.findIndex((i) => !active.has(i))
    if (missing >= 0)
      throw badRequest(`freelancers.${missing}.userId`, 'shortlist:hiring.errors.notFreelancer')
    const now = nowIso()
    await trx.deleteFrom('hiring_pick').where('request_id', '=', id).execute()
    await trx
      .insertInto('hiring_pick')
      .values(
        input.freelancers.map((f, i) => ({
          ...{ request_id: id, freelancer_id: f.userId, position: i, note: f.note, created_at: now },
        })),
      )
      .execute()
    await trx
      .updateTable('hiring_request')
      .set({ state: 'proposed', assignee_id: row.assignee_id ?? caller.userId, updated_at: now })
      .where('id', '=', id)
      .execute()
    await recordAdminAction(trx, {
      ...{ actorId: caller.userId, action: 'propose', objectType: 'hiring_request', objectId: id },
      ...{ fromState: row.state, toState: 'proposed', params: { count: ids.length } },
    })
    await enqueue(trx, HIRING_NOTIFY_TOPIC, {
      userId: row.client_id,
      requestId: id,
      count: ids.length,
    } satisfies HiringNotifyPayload)
  })
  return detail(db, id)
}

async function close({ db, dialect }: Deps, caller: Caller, id: number, reason?: string) {
  await db.transaction().execute(async (trx) => {
    const row = await locked(trx, dialect, id)
    await trx
      .updateTable('hiring_request')
      .set({ state: 'done', updated_at: nowIso() })
      .where('id', '=', id)
      .execute()
    await recordAdminAction(trx, {
      ...{ actorId: caller.userId, action: 'close', objectType: 'hiring_request', objectId: id },
      ...{ fromState: row.state, toState: 'done', reason: reason ?? null },
    })
  })
  return detail(db, id)
}

export function createHiringAdmin(deps: Deps) {
  return {
    queue: (q: QueueQuery) => queue(deps, q),
    get: (id: number, q?: string) => detail(deps.db, id, q),
    claim: (c: Caller, id: number) => claim(deps, c, id),
    propose: (c: Caller, id: number, input: ProposalInput) => propose(deps, c, id, input),
    close: (c: Caller, id: number, reason?: string) => close(deps, c, id, reason),
  }
}
