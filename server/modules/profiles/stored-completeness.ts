import type { DB } from '#server/db/database.ts'
import type { Trx } from './shared.ts'

// Each profile row keeps its completeness in percent, so identity can fold it into the account's
// wengazPercentage without loading the whole profile on every token it signs.

/** Stores the percentage of a view just built after a change, and answers the view. */
export async function storeCompleteness<V extends { completeness: { percent: number } }>(
  db: DB,
  userId: number,
  view: V,
) {
  const percent = view.completeness.percent
  await db
    .updateTable('freelancer_profile')
    .set({ completeness: percent })
    .where('user_id', '=', userId)
    .where('completeness', '!=', percent)
    .execute()
  await db
    .updateTable('client_profile')
    .set({ completeness: percent })
    .where('user_id', '=', userId)
    .where('completeness', '!=', percent)
    .execute()
  return view
}

/** The account's stored profile completeness, or null when it has not started a profile. */
export async function percentFor(executor: Trx, userId: number) {
  const f = await executor
    .selectFrom('freelancer_profile')
    .select('completeness')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (f) return f.completeness
  const c = await executor
    .selectFrom('client_profile')
    .select('completeness')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return c ? c.completeness : null
}
