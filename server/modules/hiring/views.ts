import type { Kysely, Transaction } from 'kysely'
import { sql } from 'kysely'
import type { Database, HiringRequestTable, Locale } from '#server/db/schema.ts'
import { displayName, personName } from '../identity/display-name.ts'
import { Role } from '../identity/permissions.ts'
import type { SearchHit } from '../profiles/contract.ts'

// How a hiring request reads (decision 338): the client sees the freelancers as Find Freelancers
// shows them; support sees names and titles, and finds candidates by name among active freelancers.

export type Executor = Kysely<Database> | Transaction<Database>
export type Hits = (ids: number[], locale: Locale) => Promise<SearchHit[]>
type Row = Omit<HiringRequestTable, 'id'> & { id: number }

const iso = (v: string) => new Date(v).toISOString()

/** The request's own columns with its project's title, and how many freelancers it proposes. */
export function requestRows(db: Executor) {
  return db
    .selectFrom('hiring_request as h')
    .leftJoin('project as p', 'p.id', 'h.project_id')
    .selectAll('h')
    .select(['p.title as project_title'])
    .select((eb) =>
      eb
        .selectFrom('hiring_pick as k')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('k.request_id', '=', 'h.id')
        .as('picks'),
    )
}

export function summaryOf(r: Row & { project_title: string | null; picks: number | string | null }) {
  return {
    id: r.id,
    need: r.need,
    budgetMinMinor: r.budget_min_minor,
    budgetMaxMinor: r.budget_max_minor,
    currency: r.currency,
    deadline: r.deadline,
    state: r.state,
    project: r.project_id != null ? { id: r.project_id, title: r.project_title ?? '' } : null,
    picks: Number(r.picks ?? 0),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  }
}

export const picksOf = (db: Executor, requestId: number) =>
  db
    .selectFrom('hiring_pick')
    .select(['freelancer_id', 'note'])
    .where('request_id', '=', requestId)
    .orderBy('position')
    .execute()

/** The proposed freelancers as the client sees them: those still active, in support's order. */
export async function clientPicks(db: Executor, hits: Hits, requestId: number, locale: Locale) {
  const picks = await picksOf(db, requestId)
  const found = new Map(
    (
      await hits(
        picks.map((p) => p.freelancer_id),
        locale,
      )
    ).map((h) => [h.userId, h]),
  )
  return picks.flatMap((p) => {
    const freelancer = found.get(p.freelancer_id)
    return freelancer ? [{ freelancer, note: p.note }] : []
  })
}

/** Active freelancers (`ids` among them, or whose name holds every word of `q`), for support. */
export async function freelancers(db: Executor, filter: { ids?: number[]; q?: string; limit?: number }) {
  let q = db
    .selectFrom('app_user as u')
    .innerJoin('user_role as r', 'r.user_id', 'u.id')
    .leftJoin('freelancer_profile as f', 'f.user_id', 'u.id')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.status', 'f.title'])
    .where('u.status', '=', 'Active')
    .where('r.role', '=', Role.Freelancer)
  if (filter.ids) {
    if (!filter.ids.length) return []
    q = q.where('u.id', 'in', filter.ids)
  }
  for (const word of (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 5))
    q = q.where(
      sql<string>`lower(u.first_name || ' ' || u.last_name)`,
      'like',
      `%${word.replace(/[\\%_]/g, '')}%`,
    )
  const rows = await q
    .orderBy('u.id', 'desc')
    .limit(filter.limit ?? 10)
    .execute()
  return rows.map((u) => ({ id: u.id, name: personName(u), title: u.title ?? null }))
}

export const nameOf = (u: {
  first_name: string | null
  last_name: string | null
  company_name: string | null
  status: string | null
}) => displayName(u)
