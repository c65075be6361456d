import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * `freelancer_profile.listed` is whether Find Freelancers shows the freelancer: the profile has a
 * title and the account is active. Keeping the account's part on the profile row lets a search
 * read only the profile and the search document, instead of joining every user to check their
 * status (decision 013). Called in the same transaction as any change of either part: the
 * profile's reindex, and identity's setStatus (suspend, reactivate, delete).
 */
export async function relistFreelancer(executor: Kysely<Database>, userId: number) {
  const account = await executor.selectFrom('app_user').select('status').where('id', '=', userId).executeTakeFirst()
  await executor
    .updateTable('freelancer_profile')
    .set((eb) => ({ listed: eb.case().when('title', '<>', '').then(account?.status === 'Active' ? 1 : 0).else(0).end() }))
    .where('user_id', '=', userId)
    .execute()
}
