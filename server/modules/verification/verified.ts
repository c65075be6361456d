import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'

// Who is verified (decision 332), for the modules that show the badge: profiles, proposals and
// Find Freelancers read it through these functions, never the tables. A person is verified once
// a SuperAdmin approved one of their requests; they cannot ask again after that.

type Executor = Kysely<Database> | Transaction<Database>

/** The ids of verified people, as a subquery (`where user_id in verifiedIds(db)`). */
export const verifiedIds = (db: Executor) =>
  db.selectFrom('identity_verification').select('user_id').where('state', '=', 'verified')

/** Which of these people are verified. */
export async function verifiedAmong(db: Executor, userIds: readonly number[]) {
  const ids = [...new Set(userIds)]
  if (!ids.length) return new Set<number>()
  const rows = await verifiedIds(db).where('user_id', 'in', ids).execute()
  return new Set(rows.map((r) => r.user_id))
}

export const isVerified = async (db: Executor, userId: number) =>
  (await verifiedAmong(db, [userId])).has(userId)

/** An erased account's requests and documents go with its personal data (decision 236): nothing of them is kept. */
export async function eraseVerification(executor: Executor, userId: number) {
  await executor
    .deleteFrom('verification_document')
    .where('verification_id', 'in', (eb) =>
      eb.selectFrom('identity_verification').select('id').where('user_id', '=', userId),
    )
    .execute()
  await executor.deleteFrom('identity_verification').where('user_id', '=', userId).execute()
}
