import type { Caller } from '#server/api/handler.ts'
import {
  callerAccount,
  fieldError,
  invalidToken,
  limit,
  mail,
  nowIso,
  siteUrl,
  type CallInfo,
  type IdentityContext,
} from './context.ts'
import { apiMessage } from './mails.ts'
import { consumeToken, issueToken } from './mail-tokens.ts'
import { verifyPassword } from './passwords.ts'
import { lifetimes } from './rules.ts'

// Changing the account's address: a link goes to the new address, and the change happens only when
// it is opened, so an address nobody reads never becomes the account's.

export async function changeEmail(
  ctx: IdentityContext,
  caller: Caller,
  input: { newEmail: string; password: string },
  info: CallInfo,
) {
  const { db } = ctx
  await limit(ctx, ctx.limits.forgotIp, info.ip)
  const user = await callerAccount(db, caller.userId)
  // An account that signs in only through a provider has no password to ask for.
  if (user.password_hash && !(await verifyPassword(input.password, user.password_hash)))
    throw fieldError('password', 'is not your current password')
  if (input.newEmail === user.email) throw fieldError('newEmail', 'is already your address')
  const taken = await db
    .selectFrom('app_user')
    .select('id')
    .where('email', '=', input.newEmail)
    .executeTakeFirst()
  if (taken) throw fieldError('newEmail', 'is already in use')
  await db.transaction().execute(async (trx) => {
    const token = await issueToken(trx, user.id, 'change_email', lifetimes.changeEmailMs, input.newEmail)
    await mail(trx, 'changeEmail', user, siteUrl(ctx, `/auth/confirm-email?token=${token}`), input.newEmail)
  })
  return { message: apiMessage(info.locale, 'emailChangeSent') }
}

export async function confirmEmailChange(ctx: IdentityContext, token: string, info: CallInfo) {
  await limit(ctx, ctx.limits.verifyIp, info.ip)
  await ctx.db.transaction().execute(async (trx) => {
    const row = await consumeToken(trx, token, 'change_email')
    if (!row || !row.data) throw invalidToken()
    const taken = await trx
      .selectFrom('app_user')
      .select('id')
      .where('email', '=', row.data)
      .executeTakeFirst()
    if (taken) throw fieldError('newEmail', 'is already in use')
    await trx
      .updateTable('app_user')
      .set({ email: row.data, email_verified: 1, updated_at: nowIso() })
      .where('id', '=', row.user_id)
      .execute()
  })
  return { message: apiMessage(info.locale, 'emailChanged') }
}
