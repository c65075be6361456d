import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { ApiError } from '../../api/errors.ts'
import type { Caller } from '../../api/handler.ts'
import type { RateLimiter, RateLimitRule } from '../../lib/rate-limit.ts'
import type { SessionResult } from './contract.ts'
import { dummyHash, verifyPassword } from './passwords.ts'
import { Role } from './permissions.ts'
import {
  codeStep,
  enrolment,
  isTotpShape,
  issueChallenge,
  newRecoveryCodes,
  newTotpSecret,
  readChallenge,
  recoveryHash,
  seal,
  unseal,
} from './second-factor.ts'

type Trx = Kysely<Database> | Transaction<Database>
const nowIso = () => new Date().toISOString()

// Wrong codes: 6 per account in 15 minutes (with three codes valid at a time, a guesser has about
// 1 chance in 55,000 per window); a right code clears the count.
export const secondFactorLimit: RateLimitRule = {
  name: 'login:second-factor',
  limit: 6,
  windowMs: 15 * 60_000,
}

export interface CallInfo {
  ip: string
  userAgent?: string
}

interface Deps {
  db: Kysely<Database>
  rateLimiter: RateLimiter
  /** Read through `trx` when given (SQLite's one connection may be held by that transaction). */
  signingSecret: (trx?: Trx) => Promise<string>
  /** A session (full, or 'setup' for a SuperAdmin who has no second factor yet); `trx` revokes first when rotating. */
  startSession: (
    trx: Trx,
    userId: number,
    provider: string,
    info: CallInfo,
    secondFactor?: 'setup',
  ) => Promise<SessionResult>
  revokeSessions: (trx: Trx, userId: number) => Promise<void>
  tooManyRequests: (retryAfter: number) => ApiError
}

const fieldError = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })
const wrongCode = () =>
  fieldError('code', 'is not a valid code; enter the current code from your app or an unused recovery code')

export function createSecondFactorService(deps: Deps) {
  const { db, rateLimiter } = deps

  async function isSuperAdmin(trx: Trx, userId: number) {
    return !!(await trx
      .selectFrom('user_role')
      .select('role')
      .where('user_id', '=', userId)
      .where('role', '=', Role.SuperAdmin)
      .executeTakeFirst())
  }

  const row = (trx: Trx, userId: number) =>
    trx.selectFrom('user_second_factor').selectAll().where('user_id', '=', userId).executeTakeFirst()

  /** Checks a code (authenticator or recovery) and spends it: a TOTP step once, a recovery code once. */
  async function spend(trx: Trx, userId: number, code: string, pending = false) {
    const factor = await row(trx, userId)
    if (!factor || (pending ? factor.enabled_at : !factor.enabled_at)) return false
    if (isTotpShape(code)) {
      const step = codeStep(unseal(await deps.signingSecret(trx), factor.secret), code.replace(/[\s-]/g, ''))
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
  async function attempt(userId: number, check: () => Promise<boolean>) {
    const decision = await rateLimiter.hit(secondFactorLimit, String(userId))
    if (!decision.ok) throw deps.tooManyRequests(decision.retryAfter)
    if (!(await check())) throw wrongCode()
    await rateLimiter.reset(secondFactorLimit, String(userId))
  }

  /** After the password (or the provider) was right: a session, or a challenge when a code is owed. */
  async function signIn(trx: Trx, userId: number, provider: string, info: CallInfo) {
    const factor = await row(trx, userId)
    if (factor?.enabled_at)
      return {
        twoFactorRequired: true as const,
        ...issueChallenge(await deps.signingSecret(trx), { userId, provider }),
      }
    return deps.startSession(
      trx,
      userId,
      provider,
      info,
      (await isSuperAdmin(trx, userId)) ? 'setup' : undefined,
    )
  }

  /** The second step of a sign-in: the challenge and a code give a new session. */
  async function complete(input: { challenge: string; code: string }, info: CallInfo) {
    const challenge = readChallenge(await deps.signingSecret(), input.challenge)
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
    await attempt(challenge.userId, () =>
      db.transaction().execute(async (trx) => {
        if (!(await spend(trx, challenge.userId, input.code))) return false
        session = await deps.startSession(trx, challenge.userId, challenge.provider, info)
        return true
      }),
    )
    return session!
  }

  async function status(caller: Caller) {
    const factor = await row(db, caller.userId)
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
          ? await enrolment(unseal(await deps.signingSecret(), factor.secret), user.email)
          : null,
    }
  }

  /** A new secret to scan (replacing one not yet confirmed). */
  async function setup(caller: Caller) {
    const factor = await row(db, caller.userId)
    if (factor?.enabled_at)
      throw new ApiError(
        409,
        'Conflict',
        'Two-factor sign-in is already on; turn it off first to use another app',
      )
    const secret = await deps.signingSecret()
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
    return status(caller)
  }

  /** Confirms the app with a code: on, ten fresh recovery codes (shown once), and a new session in place of every old one. */
  async function enable(caller: Caller, input: { code: string }, info: CallInfo) {
    let result: (SessionResult & { recoveryCodes: string[] }) | undefined
    await attempt(caller.userId, () =>
      db.transaction().execute(async (trx) => {
        if (!(await spend(trx, caller.userId, input.code, true))) return false
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
        await deps.revokeSessions(trx, caller.userId)
        result = { ...(await deps.startSession(trx, caller.userId, 'local', info)), recoveryCodes }
        return true
      }),
    )
    return result!
  }

  /** Off, with the password (when the account has one) and a code. A SuperAdmin cannot turn it off. */
  async function disable(caller: Caller, input: { password?: string; code: string }) {
    if (caller.roles.includes(Role.SuperAdmin))
      throw new ApiError(403, 'Forbidden', 'Two-factor sign-in is required for administrators')
    const user = await db
      .selectFrom('app_user')
      .select('password_hash')
      .where('id', '=', caller.userId)
      .executeTakeFirstOrThrow()
    const passwordOk = await verifyPassword(input.password ?? '', user.password_hash ?? (await dummyHash()))
    if (user.password_hash && !passwordOk) throw fieldError('password', 'is not your current password')
    if (!(await row(db, caller.userId))?.enabled_at)
      throw new ApiError(409, 'Conflict', 'Two-factor sign-in is not on')
    await attempt(caller.userId, () =>
      db.transaction().execute(async (trx) => {
        if (!(await spend(trx, caller.userId, input.code))) return false
        await trx.deleteFrom('user_recovery_code').where('user_id', '=', caller.userId).execute()
        await trx.deleteFrom('user_second_factor').where('user_id', '=', caller.userId).execute()
        return true
      }),
    )
    return status(caller)
  }

  return { signIn, complete, status, setup, enable, disable }
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>
