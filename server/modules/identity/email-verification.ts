import { invalidToken, limit, mail, nowIso, siteUrl, tooManyRequests } from './context.ts'
import type { CallInfo, IdentityContext } from './context.ts'
import { apiMessage } from './mails.ts'
import { consumeToken, issueToken } from './mail-tokens.ts'
import { awardProfilePoints } from './points.ts'
import { lifetimes } from './rules.ts'

// Confirming an email address: the link mailed at sign-up (or again on request) activates the account.

/** Mails a new link to a pending account. `quiet` (a sign-in of a pending account): no limit per client, no 429. */
export async function resendVerification(
  ctx: IdentityContext,
  input: { email: string },
  info: CallInfo,
  quiet = false,
) {
  if (!quiet) await limit(ctx, ctx.limits.verifyIp, info.ip)
  const decision = await ctx.rateLimiter.hit(ctx.limits.verifyEmail, input.email.toLowerCase())
  if (decision.ok) {
    await ctx.db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom('app_user')
        .select(['id', 'email', 'first_name', 'language', 'status'])
        .where('email', '=', input.email)
        .executeTakeFirst()
      if (!user || user.status !== 'Pending') return
      const token = await issueToken(trx, user.id, 'verify_email', lifetimes.verifyEmailMs)
      await mail(trx, 'verifyEmail', user, siteUrl(ctx, `/auth/verify-email?token=${token}`))
    })
  } else if (!quiet) throw tooManyRequests(decision.retryAfter)
  return { message: apiMessage(info.locale, 'verificationSent') }
}

export async function verifyEmail(ctx: IdentityContext, token: string, info: CallInfo) {
  await limit(ctx, ctx.limits.verifyIp, info.ip)
  const verified = await ctx.db.transaction().execute(async (trx) => {
    const row = await consumeToken(trx, token, 'verify_email')
    if (!row) return false
    await trx
      .updateTable('app_user')
      .set({ email_verified: 1, updated_at: nowIso() })
      .where('id', '=', row.user_id)
      .execute()
    await trx
      .updateTable('app_user')
      .set({ status: 'Active' })
      .where('id', '=', row.user_id)
      .where('status', '=', 'Pending')
      .execute()
    await awardProfilePoints(trx, row.user_id)
    return true
  })
  if (!verified) throw invalidToken()
  return { message: apiMessage(info.locale, 'emailVerified') }
}
