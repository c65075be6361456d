import type { DB } from '#server/db/database.ts'
import { asLocale, plainText } from '../notifications/texts.ts'
import { insertSearch, writeKeys } from './saved-searches.ts'
import type { SavedFilters } from './schemas.ts'

// A new freelancer's first alert (issue 41 item 1): made when the account is created, from their
// profile's category and skills, and kept in step with them while it is `from_profile`, that is
// until the freelancer edits its filters. They can rename it, switch it off or delete it like any
// other. With no category and no skill yet it has no matching keys and so matches nothing: an
// alert on every project would be noise, not a field.

const SKILLS = 15

async function profileFilters(db: DB, userId: number): Promise<SavedFilters> {
  const profile = await db
    .selectFrom('freelancer_profile')
    .select('category_id')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  const skills = await db
    .selectFrom('freelancer_skill')
    .select('skill_id')
    .where('user_id', '=', userId)
    .orderBy('skill_id')
    .limit(SKILLS)
    .execute()
  return {
    categoryId: profile?.category_id ?? undefined,
    skills: skills.map((s) => s.skill_id),
  }
}

const empty = (f: SavedFilters) => !f.categoryId && !f.skills.length

/** Makes the freelancer's first alert once (an outbox retry finds it made). */
export async function startProfileAlert(db: DB, userId: number, now = Date.now()) {
  const user = await db.selectFrom('app_user').select('language').where('id', '=', userId).executeTakeFirst()
  if (!user) return
  const filters = await profileFilters(db, userId)
  await db.transaction().execute(async (trx) => {
    const made = await trx
      .selectFrom('saved_search')
      .select('id')
      .where('owner_id', '=', userId)
      .where('kind', '=', 'project')
      .executeTakeFirst()
    if (made) return
    const name = plainText(asLocale(user.language), 'alerts:defaultName')
    const id = await insertSearch(
      trx,
      userId,
      { kind: 'project', name, frequency: 'weekly', filters },
      true,
      now,
    )
    if (empty(filters)) await trx.deleteFrom('saved_search_key').where('saved_search_id', '=', id).execute()
  })
}

/** The profile changed: an alert still following it takes its category and skills. */
export async function followProfile(db: DB, userId: number) {
  const alert = await db
    .selectFrom('saved_search')
    .select(['id', 'filters'])
    .where('owner_id', '=', userId)
    .where('from_profile', '=', 1)
    .executeTakeFirst()
  if (!alert) return
  const filters = await profileFilters(db, userId)
  if (JSON.stringify(filters) === alert.filters) return
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('saved_search')
      .set({ filters: JSON.stringify(filters), updated_at: new Date().toISOString() })
      .where('id', '=', alert.id)
      .where('from_profile', '=', 1)
      .execute()
    if (empty(filters))
      await trx.deleteFrom('saved_search_key').where('saved_search_id', '=', alert.id).execute()
    else await writeKeys(trx, alert.id, 'project', filters)
  })
}
