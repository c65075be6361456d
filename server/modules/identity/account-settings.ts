import type { Locale } from '#server/db/schema.ts'
import { unauthorized } from '#server/api/errors.ts'
import type { Caller } from '#server/api/handler.ts'
import { fieldError, nowIso, type IdentityContext } from './context.ts'
import { permissionsOf } from './permissions.ts'
import { awardProfilePoints } from './points.ts'
import type { SessionUser } from './contract.ts'
import { personName } from './display-name.ts'
import { loadUser, refreshToken } from './sessions.ts'

// The account as its owner sees and edits it: the current user, the settings page's details, and
// a change of name, phone, company name or language.

export async function currentUser(ctx: IdentityContext, caller: Caller) {
  const loaded = await loadUser(ctx, ctx.db, caller.userId)
  if (!loaded) throw unauthorized()
  return loaded.user
}

/** The top bar's user: one read of the account; its roles are the ones the session's check just read. */
export async function sessionUser(ctx: IdentityContext, caller: Caller): Promise<SessionUser> {
  const u = await ctx.db
    .selectFrom('app_user')
    .select(['id', 'first_name', 'last_name', 'image_file_id', 'status'])
    .where('id', '=', caller.userId)
    .executeTakeFirst()
  if (!u) throw unauthorized()
  return {
    id: u.id,
    firstName: u.first_name,
    lastName: u.last_name,
    name: personName(u),
    imageUrl: u.image_file_id != null ? `files/${u.image_file_id}/download` : null,
    roles: [...caller.roles].sort((a, b) => a - b),
  }
}

export async function accountDetails(ctx: IdentityContext, caller: Caller) {
  const { db } = ctx
  const loaded = await loadUser(ctx, db, caller.userId)
  if (!loaded) throw unauthorized()
  const pending = await db
    .selectFrom('user_token')
    .select('data')
    .where('user_id', '=', caller.userId)
    .where('purpose', '=', 'change_email')
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso())
    .orderBy('id', 'desc')
    .executeTakeFirst()
  const { row, user } = loaded
  return {
    ...user,
    accountType: row.account_type,
    companyName: row.company_name,
    language: row.language,
    emailVerified: row.email_verified === 1,
    hasPassword: !!row.password_hash,
    pendingEmail: pending?.data ?? null,
    createdAt: row.created_at,
    permissions: [...permissionsOf(user.roles)],
  }
}

/** Saves the settings and answers fresh token claims (the name and language travel in them). */
export async function updateAccount(
  ctx: IdentityContext,
  caller: Caller,
  token: string,
  input: {
    firstName: string
    lastName: string
    phoneNumber?: string | null
    companyName?: string | null
    language: Locale
  },
) {
  await ctx.db.transaction().execute(async (trx) => {
    const u = await trx
      .selectFrom('app_user')
      .select(['account_type', 'first_name', 'last_name'])
      .where('id', '=', caller.userId)
      .executeTakeFirstOrThrow()
    if (u.account_type === 'company' && input.companyName === null)
      throw fieldError('companyName', 'is required for a company')
    await trx
      .updateTable('app_user')
      .set({
        first_name: input.firstName,
        last_name: input.lastName,
        ...(input.phoneNumber !== undefined ? { phone_number: input.phoneNumber || null } : {}),
        ...(input.companyName !== undefined && u.account_type === 'company'
          ? { company_name: input.companyName }
          : {}),
        language: input.language,
        updated_at: nowIso(),
      })
      .where('id', '=', caller.userId)
      .execute()
    if (u.first_name !== input.firstName || u.last_name !== input.lastName)
      await ctx.nameChanged?.(trx, caller.userId)
    await awardProfilePoints(trx, caller.userId)
  })
  return refreshToken(ctx, caller, token)
}
