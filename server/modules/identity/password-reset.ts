import { forbidden, notFound } from '#server/api/errors.ts'
import type { Caller } from '#server/api/handler.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import {
  invalidToken,
  limit,
  mail,
  nowIso,
  siteUrl,
  type CallInfo,
  type IdentityContext,
  type Trx,
} from './context.ts'
import { apiMessage } from './mails.ts'
import { consumeToken, issueToken } from './mail-tokens.ts'
import { checkPassword, hashPassword } from './passwords.ts'
import { can } from './permissions.ts'
import { awardProfilePoints } from './points.ts'
import { lifetimes, SESSIONS_ENDED_TOPIC } from './rules.ts'
import { revokeSessions } from './sessions.ts'

// A forgotten password: a link by mail sets a new one and ends every session. An admin can send
// the link too, with or without taking the old password away.

/** Mails a reset link in the caller's transaction (the password still works until the link is used). */
export async function mailPasswordReset(ctx: IdentityContext, trx: Trx, userId: number) {
  const user = await trx
    .selectFrom('app_user')
    .select(['id', 'email', 'first_name', 'language'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  const token = await issueToken(trx, user.id, 'reset_password', lifetimes.resetPasswordMs)
  await mail(trx, 'resetPassword', user, siteUrl(ctx, `/auth/reset-password?token=${token}`))
}

async function sendReset(ctx: IdentityContext, email: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('app_user')
      .select(['id', 'status'])
      .where('email', '=', email)
      .executeTakeFirst()
    if (!user || user.status === 'Deleted') return
    await mailPasswordReset(ctx, trx, user.id)
  })
}

export async function forgetPassword(ctx: IdentityContext, input: { email: string }, info: CallInfo) {
  await limit(ctx, ctx.limits.forgotIp, info.ip)
  const decision = await ctx.rateLimiter.hit(ctx.limits.forgotEmail, input.email.toLowerCase())
  // Over the per-address limit the answer stays the same (it would otherwise tell that the address is known).
  if (decision.ok) await sendReset(ctx, input.email)
  return { message: apiMessage(info.locale, 'resetSent') }
}

export async function resetPassword(
  ctx: IdentityContext,
  input: { token: string; password: string },
  info: CallInfo,
) {
  await limit(ctx, ctx.limits.verifyIp, info.ip)
  const hashed = hashPassword(input.password)
  const email = await ctx.db.transaction().execute(async (trx) => {
    const row = await consumeToken(trx, input.token, 'reset_password')
    if (!row) throw invalidToken()
    const user = await trx
      .selectFrom('app_user')
      .select(['id', 'email', 'first_name', 'language', 'status'])
      .where('id', '=', row.user_id)
      .executeTakeFirstOrThrow()
    checkPassword('password', input.password, user.email)
    // The mail proved the address, so a pending account becomes active too.
    await trx
      .updateTable('app_user')
      .set({ password_hash: await hashed, email_verified: 1, updated_at: nowIso() })
      .where('id', '=', user.id)
      .execute()
    await trx
      .updateTable('app_user')
      .set({ status: 'Active' })
      .where('id', '=', user.id)
      .where('status', '=', 'Pending')
      .execute()
    await revokeSessions(trx, user.id)
    await awardProfilePoints(trx, user.id)
    await mail(trx, 'passwordChanged', user)
    return user.email
  })
  // The mail proved the owner: a new device may sign in at once, whatever others guessed.
  await ctx.rateLimiter.reset(ctx.limits.loginEmail, email.toLowerCase())
  return { message: apiMessage(info.locale, 'passwordReset') }
}

/** An admin takes the password away (every session ends) and the owner gets a reset link. */
export async function adminResetPassword(
  ctx: IdentityContext,
  caller: Caller,
  userId: number,
  info: CallInfo,
) {
  const { db } = ctx
  if (!can(caller.roles, 'admin.area')) throw forbidden()
  const user = await db
    .selectFrom('app_user')
    .select(['id', 'email', 'status'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!user || user.status === 'Deleted') throw notFound('User')
  await db.transaction().execute(async (trx) => {
    await revokeSessions(trx, user.id)
    await trx
      .updateTable('app_user')
      .set({ password_hash: null, updated_at: nowIso() })
      .where('id', '=', user.id)
      .execute()
    // An admin action, so it is in the audit trail with the change (decision 214).
    await recordAdminAction(trx, {
      actorId: caller.userId,
      action: 'forceResetPassword',
      objectType: 'user',
      objectId: user.id,
    })
    await enqueue(trx, SESSIONS_ENDED_TOPIC, { userId: user.id })
  })
  await sendReset(ctx, user.email)
  return { message: apiMessage(info.locale, 'resetSent') }
}
