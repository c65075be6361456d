import { later, nowIso, type Trx } from './context.ts'
import { randomToken, sha256 } from './tokens.ts'

// The single-use links of mails (verify an address, reset a password, confirm a new address):
// random, stored only as their hash, expiring, spent once.

export type MailTokenPurpose = 'verify_email' | 'reset_password' | 'change_email'

export async function issueToken(
  trx: Trx,
  userId: number,
  purpose: MailTokenPurpose,
  lifetimeMs: number,
  data?: string,
) {
  const token = randomToken()
  // A new reset or change link replaces the older unused ones; verification links all stay valid
  // (signing in before verifying mails a new one, and the first mail must still work).
  if (purpose !== 'verify_email')
    await trx
      .updateTable('user_token')
      .set({ used_at: nowIso() })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute()
  await trx
    .insertInto('user_token')
    .values({
      user_id: userId,
      purpose,
      token_hash: sha256(token),
      data: data ?? null,
      created_at: nowIso(),
      expires_at: later(lifetimeMs),
    })
    .execute()
  return token
}

/** Uses a mail token once: the row, or null when unknown, used or expired. */
export async function consumeToken(trx: Trx, token: string, purpose: MailTokenPurpose) {
  const row = await trx
    .selectFrom('user_token')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso())
    .executeTakeFirst()
  if (!row) return null
  const used = await trx
    .updateTable('user_token')
    .set({ used_at: nowIso() })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst()
  return Number(used.numUpdatedRows) === 1 ? row : null
}
