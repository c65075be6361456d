import { ApiError } from '#server/api/errors.ts'
import type { SessionResult } from './contract.ts'
import { fieldError, nowIso, tooManyRequests, type IdentityContext, type Trx } from './context.ts'
import { Role } from './permissions.ts'
import { secondFactorLimit } from './rules.ts'
import {
  codeStep,
  isTotpShape,
  issueChallenge,
  readChallenge,
  recoveryHash,
  unseal,
} from './second-factor.ts'
import { startSession, type SessionInfo } from './sessions.ts'

// The second step of a sign-in with two-factor sign-in on: after the password (or the provider),
// a challenge; with it and a code from the app (or a recovery code), a session (decision 260).

const wrongCode = () =>
  fieldError('code', 'is not a valid code; enter the current code from your app or an unused recovery code')

export const secondFactorRow = (trx: Trx, userId: number) =>
  trx.selectFrom('user_second_factor').selectAll().where('user_id', '=', userId).executeTakeFirst()

/** Checks a code (authenticator or recovery) and spends it: a TOTP step once, a recovery code once. `pending`: the app is being confirmed. */
export async function spendCode(
  ctx: IdentityContext,
  trx: Trx,
  userId: number,
  code: string,
  pending = false,
) {
  const factor = await secondFactorRow(trx, userId)
  if (!factor || (pending ? factor.enabled_at : !factor.enabled_at)) return false
  if (isTotpShape(code)) {
    const step = codeStep(unseal(await ctx.signingSecret(trx), factor.secret), code.replace(/[\s-]/g, ''))
    if (step === null || step <= factor.last_step) return false
    // Conditional, so two requests racing with one code cannot both pass.
    const moved = await trx
      .updateTable('user_second_factor')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('last_step', '<', step)
      .executeTakeFirst()
    return Number(moved.numUpdatedRows) === 1
  }
  if (pending) return false
  const used = await trx
    .updateTable('user_recovery_code')
    .set({ used_at: nowIso() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', recoveryHash(code))
    .where('used_at', 'is', null)
    .executeTakeFirst()
  return Number(used.numUpdatedRows) === 1
}

/** Charges an attempt to the account; a right code clears it. */
export async function attemptCode(
  { rateLimiter }: IdentityContext,
  userId: number,
  check: () => Promise<boolean>,
) {
  const decision = await rateLimiter.hit(secondFactorLimit, String(userId))
  if (!decision.ok) throw tooManyRequests(decision.retryAfter)
  if (!(await check())) throw wrongCode()
  await rateLimiter.reset(secondFactorLimit, String(userId))
}

async function isSuperAdmin(trx: Trx, userId: number) {
  return !!(await trx
    .selectFrom('user_role')
    .select('role')
    .where('user_id', '=', userId)
    .where('role', '=', Role.SuperAdmin)
    .executeTakeFirst())
}

/** After the password (or the provider) was right: a session, or a challenge when a code is owed. */
export async function signInOrChallenge(
  ctx: IdentityContext,
  trx: Trx,
  userId: number,
  provider: string,
  info: SessionInfo,
) {
  const factor = await secondFactorRow(trx, userId)
  if (factor?.enabled_at)
    return {
      twoFactorRequired: true as const,
      ...issueChallenge(await ctx.signingSecret(trx), { userId, provider }),
    }
  // A SuperAdmin without a second factor may only set one up (decision 260).
  return startSession(
    ctx,
    trx,
    userId,
    provider,
    info,
    (await isSuperAdmin(trx, userId)) ? 'setup' : undefined,
  )
}

/** The second step of a sign-in: the challenge and a code give a new session. */
export async function completeSignIn(
  ctx: IdentityContext,
  input: { challenge: string; code: string },
  info: SessionInfo,
) {
  const { db } = ctx
  const challenge = readChallenge(await ctx.signingSecret(), input.challenge)
  if (!challenge)
    throw new ApiError(400, 'Invalid', 'The sign-in took too long; sign in again', {
      challenge: ['is invalid or expired'],
    })
  const account = await db
    .selectFrom('app_user')
    .select('status')
    .where('id', '=', challenge.userId)
    .executeTakeFirst()
  if (account?.status !== 'Active') throw new ApiError(401, 'Unauthorized', 'Invalid email or password')
  let session: SessionResult | undefined
  await attemptCode(ctx, challenge.userId, () =>
    db.transaction().execute(async (trx) => {
      if (!(await spendCode(ctx, trx, challenge.userId, input.code))) return false
      session = await startSession(ctx, trx, challenge.userId, challenge.provider, info)
      return true
    }),
  )
  return session!
}
