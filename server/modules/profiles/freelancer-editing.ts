import type { Updateable } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { requireFreelancer } from './access.ts'
import { checkCategorization, checkCountry } from './catalogue-checks.ts'
import { ownFreelancer } from './freelancer-view.ts'
import { indexFreelancer, relistFreelancer } from './listing.ts'
import { nowIso, type Body, type ProfilesDeps, type Trx } from './shared.ts'
import { storeCompleteness } from './stored-completeness.ts'
import { enqueue } from '#server/jobs/outbox.ts'

/** A freelancer's profile changed (payload `{ userId }`): job alerts follow it after commit (alerts/service.ts). */
export const FREELANCER_CHANGED_TOPIC = 'profiles.freelancer-changed'

// Editing a freelancer's own profile: every change runs in one transaction that starts the profile
// if need be and keeps Find Freelancers in step, then answers the whole profile as its editor shows it.

/** Starts the caller's profile row on its first change. */
export async function ensureFreelancer(trx: Trx, userId: number) {
  const now = nowIso()
  await trx
    .insertInto('freelancer_profile')
    .values({ user_id: userId, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute()
}

/** Keeps the search document and the `listed` flag in step with the profile (listed: a title and an active account, listing.ts). */
export async function reindexFreelancer(trx: Trx, dialect: Dialect, userId: number) {
  await trx
    .updateTable('freelancer_profile')
    .set({ updated_at: nowIso() })
    .where('user_id', '=', userId)
    .execute()
  await relistFreelancer(trx as DB, userId)
  await indexFreelancer(trx as DB, dialect, userId)
}

/** A change to the caller's freelancer profile in one transaction; answers the whole profile. `reindex` when the searched text changed. */
export async function changeFreelancer(
  { db, dialect, index }: ProfilesDeps,
  caller: Caller,
  locale: Locale,
  change: (trx: Trx) => Promise<void>,
  options: { reindex?: boolean } = {},
) {
  requireFreelancer(caller)
  await db.transaction().execute(async (trx) => {
    await ensureFreelancer(trx, caller.userId)
    await change(trx)
    if (options.reindex) await reindexFreelancer(trx, dialect, caller.userId)
    else {
      await trx
        .updateTable('freelancer_profile')
        .set({ updated_at: nowIso() })
        .where('user_id', '=', caller.userId)
        .execute()
      await index.copyTerms(trx as DB, caller.userId) // the search filters follow every field
    }
    await enqueue(trx, FREELANCER_CHANGED_TOPIC, { userId: caller.userId })
  })
  return storeCompleteness(db, caller.userId, await ownFreelancer(db, caller, locale))
}

/** Sets columns of the caller's profile row. */
const setFreelancer = (
  deps: ProfilesDeps,
  caller: Caller,
  locale: Locale,
  values: Updateable<Database['freelancer_profile']>,
  reindex = false,
) =>
  changeFreelancer(
    deps,
    caller,
    locale,
    async (trx) =>
      void (await trx
        .updateTable('freelancer_profile')
        .set(values)
        .where('user_id', '=', caller.userId)
        .execute()),
    { reindex },
  )

/** The one-field sections of the editor; the title is searched, so it reindexes. */
export function freelancerFieldEditors(deps: ProfilesDeps) {
  const set = (c: Caller, l: Locale, values: Updateable<Database['freelancer_profile']>, reindex = false) =>
    setFreelancer(deps, c, l, values, reindex)
  return {
    description: (c: Caller, l: Locale, b: Body<'description'>) => set(c, l, { description: b.description }),
    title: (c: Caller, l: Locale, b: Body<'title'>) => set(c, l, { title: b.title }, true),
    titleOverview: (c: Caller, l: Locale, b: Body<'titleOverview'>) =>
      set(c, l, { title: b.title, overview: b.overview }, true),
    experienceLevel: (c: Caller, l: Locale, b: Body<'experienceLevel'>) =>
      set(c, l, { experience_level: b.experienceLevel }),
    yearsOfExperience: (c: Caller, l: Locale, b: Body<'yearsOfExperience'>) =>
      set(c, l, { years_of_experience: b.yearsOfExperience }),
    availability: (c: Caller, l: Locale, b: Body<'availability'>) =>
      set(c, l, { availability: b.availability }),
    gender: (c: Caller, l: Locale, b: Body<'gender'>) => set(c, l, { gender: b.gender }),
    hourlyRate: (c: Caller, l: Locale, b: Body<'hourlyRate'>) =>
      set(c, l, { hourly_rate_minor: b.amountMinor, currency: b.currency }),
    country: (c: Caller, l: Locale, b: Body<'country'>) =>
      changeFreelancer(deps, c, l, async (trx) => {
        await checkCountry(trx, 'country', b.country)
        await trx
          .updateTable('freelancer_profile')
          .set({ country: b.country, city: b.city || null })
          .where('user_id', '=', c.userId)
          .execute()
      }),
    details: (c: Caller, l: Locale, b: Body<'details'>) => saveDetails(deps, c, l, b),
    categorization: (c: Caller, l: Locale, b: Body<'categorization'>) => saveCategorization(deps, c, l, b),
  }
}

/** Several fields of one editor section in one transaction: a refused country changes none of them. */
function saveDetails(deps: ProfilesDeps, c: Caller, l: Locale, b: Body<'details'>) {
  return changeFreelancer(deps, c, l, async (trx) => {
    if (b.country !== undefined) await checkCountry(trx, 'country', b.country)
    const values: Updateable<Database['freelancer_profile']> = {
      ...(b.experienceLevel !== undefined && { experience_level: b.experienceLevel }),
      ...(b.yearsOfExperience !== undefined && { years_of_experience: b.yearsOfExperience }),
      ...(b.availability !== undefined && { availability: b.availability }),
      ...(b.amountMinor !== undefined && { hourly_rate_minor: b.amountMinor, currency: b.currency }),
      ...(b.country !== undefined && { country: b.country, city: b.city || null }),
      ...(b.gender !== undefined && { gender: b.gender }),
    }
    if (Object.keys(values).length)
      await trx.updateTable('freelancer_profile').set(values).where('user_id', '=', c.userId).execute()
  })
}

/** The category, its subcategories and the skills, replaced together; skills are searched, so it reindexes. */
function saveCategorization(deps: ProfilesDeps, c: Caller, l: Locale, b: Body<'categorization'>) {
  return changeFreelancer(
    deps,
    c,
    l,
    async (trx) => {
      const { subs, skills } = await checkCategorization(trx, b.categoryId, b.subcategoryIds, b.skillIds)
      await trx
        .updateTable('freelancer_profile')
        .set({ category_id: b.categoryId })
        .where('user_id', '=', c.userId)
        .execute()
      await trx.deleteFrom('freelancer_subcategory').where('user_id', '=', c.userId).execute()
      await trx.deleteFrom('freelancer_skill').where('user_id', '=', c.userId).execute()
      if (subs.length)
        await trx
          .insertInto('freelancer_subcategory')
          .values(subs.map((s) => ({ user_id: c.userId, subcategory_id: s })))
          .execute()
      if (skills.length)
        await trx
          .insertInto('freelancer_skill')
          .values(skills.map((s) => ({ user_id: c.userId, skill_id: s })))
          .execute()
    },
    { reindex: true },
  )
}
