import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { AuditEntry, AuditParams } from './contract.ts'
import { personName } from '../identity/display-name.ts'

type Executor = Kysely<Database> | Transaction<Database>

// The admin audit trail (issue 18 item 5, decision 214): every admin action and every state change
// an admin makes is one appended row: who, when, what (action, object, states) and why. Write it
// in the transaction of the change itself, so a change is never without its row nor a row without
// its change. Other admin parts (users, content, payments) call `recordAdminAction` too.
// Every action an admin can take and every kind of object it can touch. The audit list names each
// in five languages (`adminUsers:auditActions`, `adminUsers:objects`; audit-names.test.ts checks),
// and a row with a name not listed here is refused, so a new admin action cannot reach the list
// as a raw identifier: add it here and give it its labels first.
export const adminActionNames = [
  'suspend',
  'unsuspend',
  'delete',
  'resetPassword',
  'forceResetPassword',
  'grantSuperAdmin',
  'takeSuperAdmin',
  'reply',
  'assign',
  'start',
  'ask_user',
  'resolve',
  'reopen',
  'close',
  'decide_dispute',
  'hold_money',
  'read_room',
  'reconcile',
  'content.create',
  'content.update',
  'content.delete',
  'content.move-up',
  'content.move-down',
  'content.publish',
  'content.unpublish',
  'content.image-upload',
  'catalogue.category.create',
  'catalogue.category.rename',
  'catalogue.category.move',
  'catalogue.category.delete',
  'catalogue.category.image',
  'catalogue.subcategory.create',
  'catalogue.subcategory.rename',
  'catalogue.subcategory.move',
  'catalogue.subcategory.delete',
  'catalogue.skill.create',
  'catalogue.skill.rename',
  'catalogue.skill.move',
  'catalogue.skill.delete',
  'catalogue.skills.import',
  // Verified identity (decision 332): reading a person's document is audited as the decisions are.
  'verification.approve',
  'verification.reject',
  'verification.document',
  'project.approve',
  'project.return',
  'project.review-rule',
  'claim',
  'propose',
] as const
export const adminObjectTypes = [
  'user',
  'complaint',
  'chat_room',
  'payout',
  'refund_request',
  'payments',
  'faq_entry',
  'blog_post',
  'home_box',
  'service_highlight',
  'partner_logo',
  'stored_file',
  'category',
  'subcategory',
  'skill',
  'catalogue_sheet',
  'identity_verification',
  'project',
  'project_review_rule',
  'hiring_request',
] as const
export type AdminActionName = (typeof adminActionNames)[number]
export type AdminObjectType = (typeof adminObjectTypes)[number]

export interface AdminAction {
  actorId: number
  action: AdminActionName
  objectType: AdminObjectType
  objectId: number | null
  fromState?: string | null
  toState?: string | null
  /** The admin's own words. */
  reason?: string | null
  /** The facts a reader needs (amounts in minor units, counts, ids): the screen words them in the reader's language. */
  params?: AuditParams | null
}

export async function recordAdminAction(executor: Executor, a: AdminAction) {
  // Also at run time: some callers pass names they build (a machine's step, a kind of object).
  if (
    !(adminActionNames as readonly string[]).includes(a.action) ||
    !(adminObjectTypes as readonly string[]).includes(a.objectType)
  ) {
    throw new Error(
      `admin audit: unknown action ${a.action} on ${a.objectType}; list it in complaints/audit.ts with its labels`,
    )
  }
  await executor
    .insertInto('admin_audit')
    .values({
      actor_id: a.actorId,
      action: a.action,
      object_type: a.objectType,
      object_id: a.objectId,
      from_state: a.fromState ?? null,
      to_state: a.toState ?? null,
      reason: a.reason ?? null,
      params: a.params ? JSON.stringify(a.params) : null,
      at: new Date().toISOString(),
    })
    .execute()
}

export const AUDIT_PAGE = 50

export interface AuditFilter {
  objectType?: string
  objectId?: number
  actorId?: number
  action?: string
  /** Days (YYYY-MM-DD, UTC), both included. */
  from?: string
  to?: string
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString()

// One filter for the rows, their count and the page (the /admin/audit list and a ticket's trail).
function filtered(executor: Executor, f: AuditFilter) {
  let q = executor.selectFrom('admin_audit as a')
  if (f.objectType) q = q.where('a.object_type', '=', f.objectType)
  if (f.objectId) q = q.where('a.object_id', '=', f.objectId)
  if (f.actorId) q = q.where('a.actor_id', '=', f.actorId)
  if (f.action) q = q.where('a.action', '=', f.action)
  // `at` is an ISO string on both databases, so a day's bounds compare as text.
  if (f.from) q = q.where('a.at', '>=', `${f.from}T00:00:00.000Z`)
  if (f.to) q = q.where('a.at', '<', nextDay(f.to))
  return q
}

/** Audit rows, filtered by object, actor, action and days; `order` 'asc' lists one object's history oldest first. */
export async function listAdminActions(
  executor: Executor,
  filter: AuditFilter & { page?: number; pageSize?: number; order?: 'asc' | 'desc' },
): Promise<AuditEntry[]> {
  const size = filter.pageSize ?? AUDIT_PAGE
  const rows = await filtered(executor, filter)
    .innerJoin('app_user as u', 'u.id', 'a.actor_id')
    .select([
      'a.id',
      'a.actor_id',
      'a.action',
      'a.object_type',
      'a.object_id',
      'a.from_state',
      'a.to_state',
      'a.reason',
      'a.params',
      'a.at',
      'u.first_name',
      'u.last_name',
      'u.status',
    ])
    .orderBy('a.id', filter.order ?? 'desc')
    .offset(((filter.page ?? 1) - 1) * size)
    .limit(size)
    .execute()
  return rows.map((r) => ({
    id: r.id,
    actor: { id: r.actor_id, name: personName(r) },
    action: r.action,
    objectType: r.object_type,
    objectId: r.object_id,
    fromState: r.from_state,
    toState: r.to_state,
    reason: r.reason,
    params: r.params ? (JSON.parse(r.params) as AuditParams) : null,
    at: new Date(r.at).toISOString(),
  }))
}

export async function countAdminActions(executor: Executor, filter: AuditFilter) {
  const row = await filtered(executor, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** What the audit list can be filtered by: the admins who acted, the object types and actions recorded so far. */
export async function auditFacets(executor: Executor) {
  const actors = await executor
    .selectFrom('app_user as u')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.status'])
    .where((eb) =>
      eb.exists(eb.selectFrom('admin_audit as a').select('a.id').whereRef('a.actor_id', '=', 'u.id')),
    )
    .orderBy('u.first_name')
    .orderBy('u.id')
    .execute()
  const types = await executor
    .selectFrom('admin_audit')
    .select('object_type')
    .distinct()
    .orderBy('object_type')
    .execute()
  const actions = await executor
    .selectFrom('admin_audit')
    .select('action')
    .distinct()
    .orderBy('action')
    .execute()
  return {
    actors: actors.map((u) => ({ id: u.id, name: personName(u) })),
    objectTypes: types.map((t) => t.object_type),
    actions: actions.map((a) => a.action),
  }
}
