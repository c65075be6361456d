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
  let q = db.selectFrom('complaint')
  if (query.state) q = q.where('status', '=', query.state)
  if (query.kind) q = q.where('subject_kind', '=', query.kind)
  // Tickets waiting on support first, longest waiting first; resolved and closed ones after them.
  const rows = await q
    .select('id')
    .orderBy(sql`CASE WHEN status IN ('resolved', 'closed') THEN 1 ELSE 0 END`)
    .orderBy('updated_at', 'asc')
    .orderBy('id', 'asc')
    .offset((query.page - 1) * size)
    .limit(size)
    .execute()
  const total = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()
  return { data: await presentSummaries(db, rows), page: query.page, pageSize: size, total: Number(total.n) }
}
