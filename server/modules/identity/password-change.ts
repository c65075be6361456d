import type { Caller } from '#server/api/handler.ts'
import {
  callerAccount,
  fieldError,
  limit,
  mail,
  nowIso,
  type CallInfo,
  type IdentityContext,
} from './context.ts'
import { checkPassword, dummyHash, hashPassword, verifyPassword } from './passwords.ts'
import { revokeSessions, startSession } from './sessions.ts'

/**
 * A signed-in person changes their password with the current one: every session ends, the owner
 * is told by mail, and the caller gets a new session in place of theirs.
 */
export async function changePassword(
  ctx: IdentityContext,
  caller: Caller,
  input: { currentPassword: string; newPassword: string },
  info: CallInfo,
) {
  const { db } = ctx
  await limit(ctx, ctx.limits.loginIp, info.ip)
  const user = await callerAccount(db, caller.userId)
  const ok = await verifyPassword(input.currentPassword, user.password_hash ?? (await dummyHash()))
  if (!user.password_hash || !ok) throw fieldError('currentPassword', 'is not your current password')
  checkPassword('newPassword', input.newPassword, user.email)
  const hash = await hashPassword(input.newPassword)
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('app_user')
      .set({ password_hash: hash, updated_at: nowIso() })
      .where('id', '=', user.id)
      .execute()
    await revokeSessions(trx, user.id)
    await mail(trx, 'passwordChanged', user)
    // Keeps a SuperAdmin's setup-only session what it was: a new password is not a second factor.
    const current = await trx
      .selectFrom('user_session')
      .select('second_factor')
      .where('id', '=', caller.sessionId)
      .executeTakeFirst()
    return startSession(
      ctx,
      trx,
      user.id,
      'local',
      info,
      current?.second_factor === 'setup' ? 'setup' : undefined,
    )
  })
}
