import type { Db } from '#server/db/database.ts'
import type { ModuleTestApi } from '../../integration/module-api.ts'

// Test helpers for job alerts: the catalogue's structural engineering subcategory and its skills,
// a project body a client publishes, and draining the outbox (alerts are decided after commit).
export async function structural(database: Db) {
  const sub = await database.db
    .selectFrom('subcategory')
    .select(['id', 'category_id'])
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const skills = (
    await database.db
      .selectFrom('subcategory_skill')
      .select('skill_id')
      .where('subcategory_id', '=', sub.id)
      .orderBy('skill_id')
      .limit(3)
      .execute()
  ).map((r) => r.skill_id)
  const other = await database.db
    .selectFrom('subcategory')
    .select(['id', 'category_id'])
    .where('category_id', '<>', sub.category_id)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  return { sub, skills, other }
}

export const projectBody = (
  subcategoryId: number,
  skillIds: number[],
  over: Record<string, unknown> = {},
) => ({
  title: 'Steel beam calculations for a kitchen extension',
  description:
    'Structural calculations for removing a load-bearing wall and adding a rear extension with a flat roof.',
  subcategoryId,
  skillIds,
  budgetType: 'fixed',
  budgetMinor: 150000,
  currency: 'EUR',
  durationDays: 21,
  remote: true,
  installments: [{ title: 'Calculations', amountMinor: 150000 }],
  publish: true,
  ...over,
})

/** Publishes a project and answers its id (its alerts wait in the outbox). */
export async function publish(t: ModuleTestApi, token: string, body: Record<string, unknown>) {
  const r = await t.call('POST', 'projects', { token, body })
  if (r.status !== 200) throw new Error(`publish failed: ${r.text}`)
  return r.json.id as number
}

/** Delivers every outbox row, again until none is left (a delivery may queue more). */
export async function settle(t: ModuleTestApi) {
  while ((await t.api.jobs.outbox.drain()) > 0);
}
