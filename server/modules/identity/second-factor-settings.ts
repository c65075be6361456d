import { ApiError } from '#server/api/errors.ts'
import type { Caller } from '#server/api/handler.ts'
import type { SessionResult } from './contract.ts'
import { fieldError, nowIso, type IdentityContext } from './context.ts'
import { dummyHash, verifyPassword } from './passwords.ts'
import { Role } from './permissions.ts'
import { enrolment, newRecoveryCodes, newTotpSecret, recoveryHash, seal, unseal } from './second-factor.ts'
import { attemptCode, secondFactorRow, spendCode } from './second-factor-sign-in.ts'
import { revokeSessions, startSession, type SessionInfo } from './sessions.ts'

// Turning two-factor sign-in on and off from the account's settings (decision 260).

export async function secondFactorStatus(ctx: IdentityContext, caller: Caller) {
  const { db } = ctx
  const factor = await secondFactorRow(db, caller.userId)
  const left = factor?.enabled_at
    ? Number(
        (
          await db
            .selectFrom('user_recovery_code')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', caller.userId)
            .where('used_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      )
    : 0
  const user = await db
    .selectFrom('app_user')
    .select('email')
    .where('id', '=', caller.userId)
    .executeTakeFirstOrThrow()
  return {
    enabled: !!factor?.enabled_at,
    required: caller.roles.includes(Role.SuperAdmin),
    recoveryCodesLeft: left,
    // The secret is shown only until a code confirms it; after that, never again.
    setup:
      factor && !factor.enabled_at
        ? await enrolment(unseal(await ctx.signingSecret(), factor.secret), user.email)
        : null,
  }
}

/** A new secret to scan (replacing one not yet confirmed). */
export async function setUpSecondFactor(ctx: IdentityContext, caller: Caller) {
  const { db } = ctx
  const factor = await secondFactorRow(db, caller.userId)
  if (factor?.enabled_at)
    throw new ApiError(
      409,
      'Conflict',
      'Two-factor sign-in is already on; turn it off first to use another app',
    )
  const secret = await ctx.signingSecret()
  const base32 = newTotpSecret()
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_second_factor').where('user_id', '=', caller.userId).execute()
    await trx
      .insertInto('user_second_factor')
      .values({
        user_id: caller.userId,
        secret: seal(secret, base32),
        enabled_at: null,
        last_step: 0,
        created_at: nowIso(),
      })
      .execute()
  })
  return secondFactorStatus(ctx, caller)
}

/** Confirms the app with a code: on, ten fresh recovery codes (shown once), and a new session in place of every old one. */
export async function enableSecondFactor(
  ctx: IdentityContext,
  caller: Caller,
  input: { code: string },
  info: SessionInfo,
) {
  let result: (SessionResult & { recoveryCodes: string[] }) | undefined
  await attemptCode(ctx, caller.userId, () =>
    ctx.db.transaction().execute(async (trx) => {
      if (!(await spendCode(ctx, trx, caller.userId, input.code, true))) return false
      await trx
        .updateTable('user_second_factor')
        .set({ enabled_at: nowIso() })
        .where('user_id', '=', caller.userId)
        .execute()
      await trx.deleteFrom('user_recovery_code').where('user_id', '=', caller.userId).execute()
      const recoveryCodes = newRecoveryCodes()
      for (const code of recoveryCodes)
        await trx
          .insertInto('user_recovery_code')
          .values({ user_id: caller.userId, code_hash: recoveryHash(code), used_at: null })
          .execute()
      await revokeSessions(trx, caller.userId)
      result = { ...(await startSession(ctx, trx, caller.userId, 'local', info)), recoveryCodes }
      return true
    }),
  )
  return result!
}

/** Off, with the password (when the account has one) and a code. A SuperAdmin cannot turn it off. */
export async function disableSecondFactor(
  ctx: IdentityContext,
  caller: Caller,
  input: { password?: string; code: string },
) {
  const { db } = ctx
  if (caller.roles.includes(Role.SuperAdmin))
    throw new ApiError(403, 'Forbidden', 'Two-factor sign-in is required for administrators')
  const user = await db
    .selectFrom('app_user')
    .select('password_hash')
    .where('id', '=', caller.userId)
    .executeTakeFirstOrThrow()
  const passwordOk = await verifyPassword(input.password ?? '', user.password_hash ?? (await dummyHash()))
  if (user.password_hash && !passwordOk) throw fieldError('password', 'is not your current password')
  if (!(await secondFactorRow(db, caller.userId))?.enabled_at)
    throw new ApiError(409, 'Conflict', 'Two-factor sign-in is not on')
  await attemptCode(ctx, caller.userId, () =>
    db.transaction().execute(async (trx) => {
      if (!(await spendCode(ctx, trx, caller.userId, input.code))) return false
      await trx.deleteFrom('user_recovery_code').where('user_id', '=', caller.userId).execute()
      await trx.deleteFrom('user_second_factor').where('user_id', '=', caller.userId).execute()
      return true
    }),
  )
  return secondFactorStatus(ctx, caller)
}
