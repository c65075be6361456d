import { sql, type Kysely } from 'kysely'
import type { z } from 'zod'
import type { Database } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { readableBy, requireAdmin } from './access.ts'
import type { queueQuery } from './contract.ts'
import { complaintLimits } from './rules.ts'
import { presentSummaries } from './views.ts'

// The lists of tickets: a user's own (and those naming them), and support's queue.

/** The tickets the caller may read, newest first, a page at a time. */
export async function myTickets(db: Kysely<Database>, caller: Caller, page: number) {
  const size = complaintLimits.pageSize
  const mine = db.selectFrom('complaint as c').where((eb) => readableBy(eb, caller.userId))
  const rows = await mine
    .select('c.id')
    .orderBy('c.id', 'desc')
    .offset((page - 1) * size)
    .limit(size)
    .execute()
  const total = await mine.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()
  return { data: await presentSummaries(db, rows), page, pageSize: size, total: Number(total.n) }
}

/** Support's queue, filtered by state and subject kind. */
export async function supportQueue(db: Kysely<Database>, caller: Caller, query: z.output<typeof queueQuery>) {
  requireAdmin(caller)
  const size = complaintLimits.pageSize
  let q = db.selectFrom('complaint as c')
  if (query.state) q = q.where('c.status', '=', query.state)
  if (query.kind) q = q.where('c.subject_kind', '=', query.kind)
  const decideBy = sql`(select r.decide_by from refund_request r where r.complaint_id = c.id and r.status = 'disputed')`
  if (query.dispute) q = q.where(sql<boolean>`exists ${decideBy}`)
  // Disputes by the date they are due; otherwise tickets waiting on support first, longest waiting
  // first, resolved and closed ones after them.
  const ordered = query.dispute ? q.orderBy(decideBy) : q
  const rows = await ordered
    .select('c.id')
    .orderBy(sql`CASE WHEN c.status IN ('resolved', 'closed') THEN 1 ELSE 0 END`)
    .orderBy('c.updated_at', 'asc')
    .orderBy('c.id', 'asc')
    .offset((query.page - 1) * size)
    .limit(size)
    .execute()
  const total = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()
  return { data: await presentSummaries(db, rows), page: query.page, pageSize: size, total: Number(total.n) }
}
