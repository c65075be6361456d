import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { AuditEntry } from './contract.ts'

type Executor = Kysely<Database> | Transaction<Database>

// The admin audit trail (issue 18 item 5, decision 214): every admin action and every state change
// an admin makes is one appended row: who, when, what (action, object, states) and why. Write it
// in the transaction of the change itself, so a change is never without its row nor a row without
// its change. Other admin parts (users, content, payments) call `recordAdminAction` too.
export interface AdminAction {
  actorId: number
  action: string
  objectType: string
  objectId: number | null
  fromState?: string | null
  toState?: string | null
  reason?: string | null
}

export async function recordAdminAction(executor: Executor, a: AdminAction) {
  await executor
    .insertInto('admin_audit')
    .values({ actor_id: a.actorId, action: a.action, object_type: a.objectType, object_id: a.objectId, from_state: a.fromState ?? null, to_state: a.toState ?? null, reason: a.reason ?? null, at: new Date().toISOString() })
    .execute()
}

export const AUDIT_PAGE = 50

/** Audit rows, filtered by object and actor; `order` 'asc' lists one object's history oldest first. */
export async function listAdminActions(executor: Executor, filter: { objectType?: string; objectId?: number; actorId?: number; page?: number; order?: 'asc' | 'desc' }): Promise<AuditEntry[]> {
  let q = executor
    .selectFrom('admin_audit as a')
    .innerJoin('app_user as u', 'u.id', 'a.actor_id')
    .select(['a.id', 'a.actor_id', 'a.action', 'a.object_type', 'a.object_id', 'a.from_state', 'a.to_state', 'a.reason', 'a.at', 'u.first_name', 'u.last_name'])
  if (filter.objectType) q = q.where('a.object_type', '=', filter.objectType)
  if (filter.objectId) q = q.where('a.object_id', '=', filter.objectId)
  if (filter.actorId) q = q.where('a.actor_id', '=', filter.actorId)
  const rows = await q
    .orderBy('a.id', filter.order ?? 'desc')
    .offset(((filter.page ?? 1) - 1) * AUDIT_PAGE)
    .limit(AUDIT_PAGE)
    .execute()
  return rows.map((r) => ({
    id: r.id,
    actor: { id: r.actor_id, name: `${r.first_name} ${r.last_name}`.trim() },
    action: r.action,
    objectType: r.object_type,
    objectId: r.object_id,
    fromState: r.from_state,
    toState: r.to_state,
    reason: r.reason,
    at: new Date(r.at).toISOString(),
  }))
}
