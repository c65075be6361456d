import { nowIso, type Trx } from './context.ts'
import { pointRules } from './rules.ts'

// Reputation: points (wengazPoint) and the account's own completeness (part of wengazPercentage).

/** Awards points once per account, reason and reference; a repeat changes nothing. */
export async function awardPoints(trx: Trx, userId: number, reason: string, points: number, ref = '') {
  await trx
    .insertInto('wengaz_point_event')
    .values({ user_id: userId, reason, ref, points, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['user_id', 'reason', 'ref']).doNothing())
    .execute()
}

/** The account's completeness, in percent: name, confirmed email, phone and image, a quarter each. */
export function accountCompleteness(u: {
  first_name: string
  last_name: string
  email_verified: number
  phone_number: string | null
  image_file_id: number | null
}) {
  const parts = [
    !!(u.first_name && u.last_name),
    u.email_verified === 1,
    !!u.phone_number,
    u.image_file_id != null,
  ]
  return Math.round((parts.filter(Boolean).length / parts.length) * 100)
}

/** Points that follow from the account itself; awarded once each, so they are never taken back. */
export async function awardProfilePoints(trx: Trx, userId: number) {
  const u = await trx.selectFrom('app_user').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
  if (u.email_verified === 1) await awardPoints(trx, userId, 'email-verified', pointRules.emailVerified)
  if (u.phone_number) await awardPoints(trx, userId, 'phone-added', pointRules.phoneAdded)
  if (u.image_file_id != null) await awardPoints(trx, userId, 'image-added', pointRules.imageAdded)
  if (accountCompleteness(u) === 100)
    await awardPoints(trx, userId, 'profile-complete', pointRules.profileComplete)
}
