import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import { reviewRuleKinds, type ReviewRule } from './limits.ts'

// The review rule (issue 41 item 6, decision 339): which new projects wait for an admin before
// they are public. One row (id 1); no row is "none", today's behaviour. The publish step asks
// `catches` inside its own transaction, so no way of publishing goes around the rule.

type Executor = Kysely<Database> | Transaction<Database>

export async function readRule(executor: Executor): Promise<ReviewRule> {
  const row = await executor
    .selectFrom('project_review_rule')
    .select(['kind', 'category_ids', 'updated_at'])
    .where('id', '=', 1)
    .executeTakeFirst()
  const kind = reviewRuleKinds.find((k) => k === row?.kind) ?? 'none'
  const ids = kind === 'categories' ? (JSON.parse(row?.category_ids ?? '[]') as number[]) : []
  return { kind, categoryIds: ids, updatedAt: row?.updated_at ?? null }
}

/** Whether the rule sends this project to review before it is public. */
export async function catches(
  executor: Executor,
  project: { id: number; client_id: number; category_id: number | null },
) {
  const rule = await readRule(executor)
  if (rule.kind === 'none') return false
  if (rule.kind === 'every') return true
  if (rule.kind === 'categories')
    return project.category_id !== null && rule.categoryIds.includes(project.category_id)
  // A client's first project: they have none that was ever public (approved or published).
  const earlier = await executor
    .selectFrom('project')
    .select('id')
    .where('client_id', '=', project.client_id)
    .where('id', '!=', project.id)
    .where('published_at', 'is not', null)
    .executeTakeFirst()
  return !earlier
}
