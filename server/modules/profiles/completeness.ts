import type { Locale } from '#server/db/schema.ts'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { Role } from '../identity/permissions.ts'
import { ownClient } from './client-profile.ts'
import { ownFreelancer } from './freelancer-view.ts'

/** The caller's profile completeness in percent, whatever kind of account (0 for an admin): the dashboard and the image editor show it. */
export async function callerCompleteness(db: DB, caller: Caller, locale: Locale = 'en') {
  if (caller.roles.includes(Role.Freelancer)) return (await ownFreelancer(db, caller, locale)).completeness
  if (caller.roles.includes(Role.Company))
    return (await ownClient(db, caller, 'company', locale)).completeness
  if (caller.roles.includes(Role.Client))
    return (await ownClient(db, caller, 'individual', locale)).completeness
  return { percent: 0, missing: [] }
}
