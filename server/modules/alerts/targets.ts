import type { DB } from '#server/db/database.ts'
import type { AlertTarget } from './matching.ts'

// What alerts match on, read once per event: a published project (its facets, and its title,
// description and skill names in every language, as Find Project searches them) and a freelancer
// (category, subcategories, skills, title and overview, as Find Freelancers does). Read-only views
// of the projects' and profiles' rows, kept in this one file.

export async function projectTarget(db: DB, projectId: number) {
  const p = await db
    .selectFrom('project')
    .select([
      'id',
      'client_id',
      'status',
      'title',
      'description',
      'category_id',
      'subcategory_id',
      'budget_type',
      'budget_minor',
      'remote',
      'visibility',
    ])
    .where('id', '=', projectId)
    .executeTakeFirst()
  // An invite-only project is no one's match (decision 335); alerts go to signed-in freelancers only.
  if (!p || p.status !== 'open' || p.visibility === 'invited') return null
  const skills = await db
    .selectFrom('project_skill as ps')
    .innerJoin('skill as s', 's.id', 'ps.skill_id')
    .select(['s.id', 's.name_en', 's.name_es', 's.name_de', 's.name_it', 's.name_ru'])
    .where('ps.project_id', '=', projectId)
    .execute()
  const names = skills.flatMap((s) => [s.name_en, s.name_es, s.name_de, s.name_it, s.name_ru])
  const target: AlertTarget = {
    categoryId: p.category_id,
    subcategoryIds: p.subcategory_id ? [p.subcategory_id] : [],
    skillIds: skills.map((s) => s.id),
    text: [p.title, p.description, ...names].join(' '),
    budgetType: p.budget_type,
    budgetMinor: p.budget_minor,
    remote: p.remote === 1,
  }
  return { target, ownerId: p.client_id, title: p.title }
}

/** A listed freelancer as Find Freelancers matches them; null when the search does not show them. */
export async function freelancerTarget(db: DB, userId: number) {
  const f = await db
    .selectFrom('freelancer_profile')
    .select(['user_id', 'listed', 'title', 'overview', 'category_id'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!f) return null
  const [subs, skills] = await Promise.all([
    db.selectFrom('freelancer_subcategory').select('subcategory_id').where('user_id', '=', userId).execute(),
    db.selectFrom('freelancer_skill').select('skill_id').where('user_id', '=', userId).execute(),
  ])
  const target: AlertTarget = {
    categoryId: f.category_id,
    subcategoryIds: subs.map((s) => s.subcategory_id),
    skillIds: skills.map((s) => s.skill_id),
    text: `${f.title} ${f.overview}`,
  }
  return { target, listed: f.listed === 1, title: f.title }
}
