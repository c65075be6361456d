import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import { createSearchIndex } from './search-index.ts'
import { ownName } from '../identity/display-name.ts'

/**
 * `freelancer_profile.listed` is whether Find Freelancers shows the freelancer: the profile has a
 * title and the account is active. Keeping the account's part on the profile row lets a search
 * read only the profile and the search document, instead of joining every user to check their
 * status (decision 013). Called in the same transaction as any change of either part: the
 * profile's reindex, and identity's setStatus (suspend, reactivate, delete).
 */
export async function relistFreelancer(executor: Kysely<Database>, userId: number) {
  const account = await executor
    .selectFrom('app_user')
    .select('status')
    .where('id', '=', userId)
    .executeTakeFirst()
  await executor
    .updateTable('freelancer_profile')
    .set((eb) => ({
      listed: eb
        .case()
        .when('title', '<>', '')
        .then(account?.status === 'Active' ? 1 : 0)
        .else(0)
        .end(),
    }))
    .where('user_id', '=', userId)
    .execute()
}

/**
 * A freelancer's rating from their visible reviews (the projects module computes it), with the
 * rating bucket of the search's facet tokens kept in step in the same transaction (sort-buckets.ts).
 */
export async function rateFreelancer(
  executor: Kysely<Database>,
  dialect: Dialect,
  userId: number,
  rating: { average: number; count: number },
) {
  await executor
    .updateTable('freelancer_profile')
    .set({ rating_x100: Math.round(rating.average * 100), rating_count: rating.count })
    .where('user_id', '=', userId)
    .execute()
  await createSearchIndex(executor, dialect).copyTerms(executor, userId)
}

/**
 * Writes a freelancer's search document from their rows: the profile's title and overview, the
 * skills named in every language (a client searches in theirs) and the account's first and last
 * name (Find Freelancers finds a freelancer by name, decision 125). The profile's reindex calls it,
 * and identity when an account's name changes, each in its own transaction. Nothing without a
 * freelancer profile.
 */
export async function indexFreelancer(executor: Kysely<Database>, dialect: Dialect, userId: number) {
  const row = await executor
    .selectFrom('freelancer_profile as fp')
    .innerJoin('app_user as u', 'u.id', 'fp.user_id')
    .select(['fp.title', 'fp.overview', 'u.first_name', 'u.last_name', 'u.company_name'])
    .where('fp.user_id', '=', userId)
    .executeTakeFirst()
  if (!row) return
  const skills = await executor
    .selectFrom('freelancer_skill as fs')
    .innerJoin('skill as s', 's.id', 'fs.skill_id')
    .select(['s.name_en', 's.name_es', 's.name_de', 's.name_it', 's.name_ru'])
    .where('fs.user_id', '=', userId)
    .execute()
  const skillText = [
    ...new Set(skills.flatMap((s) => [s.name_en, s.name_es, s.name_de, s.name_it, s.name_ru])),
  ].join(' ')
  // The name the account gives itself, in no one's language: a deleted account's is blank.
  const name = ownName(row)
  await createSearchIndex(executor, dialect).put(executor, userId, {
    title: row.title,
    overview: row.overview,
    skills: skillText,
    name,
  })
}
