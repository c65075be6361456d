import { enqueue } from '#server/jobs/outbox.ts'
import { relistFreelancer } from '../profiles/listing.ts'
import { nowIso, type Trx } from './context.ts'
import { SESSIONS_ENDED_TOPIC } from './rules.ts'
import { revokeSessions } from './sessions.ts'

// For the admin module, inside its transaction (so its audit row commits with the change).

/**
 * Suspends, reactivates or deletes an account. Sessions end at once, and the user's hub connections
 * right after commit on every instance (the outbox's SESSIONS_ENDED_TOPIC), not at the next sweep.
 */
export async function setStatus(trx: Trx, userId: number, status: 'Active' | 'Suspended' | 'Deleted') {
  await trx.updateTable('app_user').set({ status, updated_at: nowIso() }).where('id', '=', userId).execute()
  if (status !== 'Active') {
    await revokeSessions(trx, userId)
    await enqueue(trx, SESSIONS_ENDED_TOPIC, { userId })
  }
  await relistFreelancer(trx, userId) // Find Freelancers shows active accounts only
}

/**
 * In the transaction that grants or takes a role: every session of the account ends, so the next
 * sign-in starts a new session id with the new rights (and a new SuperAdmin meets the two-factor
 * rule of decision 260). Decision 261.
 */
export async function rolesChanged(trx: Trx, userId: number) {
  await revokeSessions(trx, userId)
  // After commit, the hubs drop its connections too, as when an account is suspended.
  await enqueue(trx, SESSIONS_ENDED_TOPIC, { userId })
}
