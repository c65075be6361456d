import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { badRequest, notFound } from '#server/api/errors.ts'
import { recordAdminAction } from '../../complaints/audit.ts'
import { indexProject } from '../search.ts'
import type { ProjectSearchIndex } from '../search-index.ts'
import { lockRow, notify, transitionProject, type Trx } from '../transition.ts'
import { nowIso, offsetOf, pageOf, type PageQuery, type ProjectRow } from '../shared.ts'
import type { ProjectViews } from '../views.ts'
import { readRule } from './rule.ts'
import type { ReviewRuleKind } from './limits.ts'

// The admin's side of review before publication (issue 41 item 6, decision 339): the rule, the
// queue of projects in review (oldest first, with their content), and the two decisions. Each
// decision is one state change of the project's machine (admin actor), one admin audit row and a
// notice to the client, in one transaction; a decided project answers 409 to a second decision.

type ReviewDeps = {
  db: DB
  dialect: Dialect
  index: ProjectSearchIndex
  views: Pick<ProjectViews, 'details'>
}

async function setRule(
  { db }: ReviewDeps,
  caller: Caller,
  input: { kind: ReviewRuleKind; categoryIds: number[] },
) {
  const ids = input.kind === 'categories' ? [...new Set(input.categoryIds)] : []
  if (input.kind === 'categories' && !ids.length) throw badRequest('categoryIds', 'must name a category')
  if (ids.length) {
    const found = await db.selectFrom('category').select('id').where('id', 'in', ids).execute()
    if (found.length !== ids.length) throw badRequest('categoryIds', 'contains an unknown category')
  }
  await db.transaction().execute(async (trx) => {
    const before = await readRule(trx)
    const row = { kind: input.kind, category_ids: JSON.stringify(ids), updated_by: caller.userId }
    const now = nowIso()
    await trx
      .insertInto('project_review_rule')
      .values({ id: 1, ...row, updated_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ ...row, updated_at: now }))
      .execute()
    await recordAdminAction(trx, {
      actorId: caller.userId,
      action: 'project.review-rule',
      objectType: 'project_review_rule',
      objectId: null,
      fromState: before.kind,
      toState: input.kind,
      params: ids.length ? { categories: ids.join(', ') } : null,
    })
  })
  return readRule(db)
}

async function queue({ db, views }: ReviewDeps, caller: Caller, query: PageQuery, locale: Locale) {
  const q = db.selectFrom('project').where('status', '=', 'in_review')
  const [rows, total] = await Promise.all([
    q
      .selectAll()
      .orderBy('review_submitted_at', 'asc')
      .orderBy('id', 'asc')
      .offset(offsetOf(query))
      .limit(query.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  const data = await Promise.all(
    rows.map(async (r) => ({
      ...(await views.details(r, caller, locale)),
      submittedAt: r.review_submitted_at ?? r.updated_at,
    })),
  )
  return pageOf(data, query, total?.n)
}

type Decision = { action: 'approve' } | { action: 'return'; reason: string }

/** The one decision on a project in review: its state change, the audit row and the client's notice. */
async function decideIn(trx: Trx, deps: ReviewDeps, caller: Caller, row: ProjectRow, d: Decision) {
  const approve = d.action === 'approve'
  const reason = approve ? null : d.reason
  const to = await transitionProject(trx, {
    id: row.id,
    current: row.status as 'in_review',
    action: d.action,
    actor: 'admin',
    actorId: caller.userId,
    projectId: row.id,
    note: reason,
    set: approve
      ? { published_at: nowIso(), review_submitted_at: null, review_reason: null }
      : { review_submitted_at: null, review_reason: reason },
    effects: [
      notify(
        [row.client_id],
        approve ? 'projectApproved' : 'projectReturned',
        row.id,
        'ProjectStatus',
        approve ? { title: row.title } : { title: row.title, reason: reason! },
      ),
    ],
  })
  await recordAdminAction(trx, {
    actorId: caller.userId,
    action: approve ? 'project.approve' : 'project.return',
    objectType: 'project',
    objectId: row.id,
    fromState: row.status,
    toState: to,
    reason,
  })
  await indexProject(deps.index, trx, { ...row, status: to })
  return to
}

async function decide(deps: ReviewDeps, caller: Caller, id: number, d: Decision) {
  const { db, dialect } = deps
  const status = await db.transaction().execute(async (trx) => {
    const row = await lockRow(trx, dialect, 'project', id)
    if (!row) throw notFound('Project')
    return decideIn(trx, deps, caller, row, d)
  })
  return { id, status }
}

export function createProjectReview(deps: ReviewDeps) {
  return {
    rule: () => readRule(deps.db),
    setRule: setRule.bind(null, deps),
    queue: queue.bind(null, deps),
    approve: (caller: Caller, id: number) => decide(deps, caller, id, { action: 'approve' }),
    return: (caller: Caller, id: number, reason: string) =>
      decide(deps, caller, id, { action: 'return', reason }),
  }
}
export type ProjectReview = ReturnType<typeof createProjectReview>
