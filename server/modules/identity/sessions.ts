import { ApiError, unauthorized } from '#server/api/errors.ts'
import type { Caller } from '#server/api/handler.ts'
import type { CurrentUser, SessionResult } from './contract.ts'
import { later, nowIso, type CallInfo, type IdentityContext, type Trx } from './context.ts'
import { apiMessage } from './mails.ts'
import { personName } from './display-name.ts'
import { accountCompleteness } from './points.ts'
import { lifetimes } from './rules.ts'
import { randomToken, sha256, signJwt, verifyJwt } from './tokens.ts'

// Sessions and the bearer token. A session is a row the token names, checked on every call, so
// logout, a password change and an admin's suspension end it at once.

/** Where a sign-in comes from, as its session row keeps it. */
export type SessionInfo = Pick<CallInfo, 'ip' | 'userAgent'>

/** The account row and the user the token and the top bar show. */
export async function loadUser(ctx: IdentityContext, trx: Trx, userId: number) {
  const u = await trx.selectFrom('app_user').selectAll().where('id', '=', userId).executeTakeFirst()
  if (!u) return null
  const [roles, points] = await Promise.all([
    trx.selectFrom('user_role').select('role').where('user_id', '=', userId).orderBy('role').execute(),
    trx
      .selectFrom('wengaz_point_event')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('points'), eb.lit(0)).as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirst(),
  ])
  // wengazPercentage: the account's completeness, averaged with the profile's once one is started.
  const profilePercent = (await ctx.profileCompleteness?.(trx, userId)) ?? null
  const own = accountCompleteness(u)
  const user: CurrentUser = {
    id: u.id,
    firstName: u.first_name,
    lastName: u.last_name,
    // The token's name is first and last joined, a company's person included.
    name: personName(u),
    imageUrl: u.image_file_id != null ? `files/${u.image_file_id}/download` : null,
    email: u.email,
    status: u.status,
    phoneNumber: u.phone_number,
    roles: roles.map((r) => r.role),
    wengazPoint: Number(points?.total ?? 0),
    wengazPercentage: profilePercent == null ? own : Math.round((own + profilePercent) / 2),
    Provider: u.provider,
  }
  return { row: u, user }
}

// `mfa: 'setup'` tells the web UI this session may only set up two-factor sign-in (decision 260).
async function tokenFor(
  ctx: IdentityContext,
  executor: Trx,
  user: CurrentUser,
  sid: string,
  expiresAt: string,
  secondFactor?: string | null,
): Promise<SessionResult> {
  const claims = {
    ...user,
    sid,
    ...(secondFactor ? { mfa: secondFactor } : {}),
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.parse(expiresAt) / 1000),
  }
  return { token: signJwt(claims, await ctx.signingSecret(executor)), expiresAt, user }
}

/** Signing in within the grace period of a closed account keeps it: it is no longer closing (decision 330). */
async function keepClosingAccount(trx: Trx, userId: number) {
  await trx
    .updateTable('app_user')
    .set({ closing_at: null })
    .where('id', '=', userId)
    .where('closing_at', 'is not', null)
    .execute()
}

/** Every sign-in starts a new session with a new random id (never one the browser brought). `setup`: a SuperAdmin without a second factor yet. */
export async function startSession(
  ctx: IdentityContext,
  trx: Trx,
  userId: number,
  provider: string,
  info: SessionInfo,
  secondFactor?: 'setup',
): Promise<SessionResult> {
  const sid = randomToken()
  const expiresAt = later(lifetimes.sessionMs)
  await keepClosingAccount(trx, userId)
  await trx
    .insertInto('user_session')
    .values({
      id: sha256(sid),
      user_id: userId,
      provider,
      user_agent: info.userAgent?.slice(0, 300) ?? null,
      ip: info.ip || null,
      created_at: nowIso(),
      expires_at: expiresAt,
      second_factor: secondFactor ?? null,
    })
    .execute()
  const loaded = await loadUser(ctx, trx, userId)
  return tokenFor(ctx, trx, loaded!.user, sid, expiresAt, secondFactor)
}

export async function revokeSessions(trx: Trx, userId: number, exceptSessionId?: string) {
  let q = trx
    .updateTable('user_session')
    .set({ revoked_at: nowIso() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId)
  await q.execute()
}

/** Only an active account signs in; a pending one is told to confirm its address first. */
export function assertCanSignIn(status: string) {
  if (status === 'Pending')
    throw new ApiError(
      403,
      'Email Not Verified',
      'Confirm your email address first: we have sent you a link.',
    )
  if (status === 'Suspended')
    throw new ApiError(403, 'Account Suspended', 'This account is suspended. Contact support.')
  if (status !== 'Active') throw unauthorized('Invalid email or password')
}

/** The caller a bearer token names, if its session is live and its user may act; else null. */
export async function authenticate(
  ctx: IdentityContext,
  token: string | null | undefined,
): Promise<(Caller & { expiresAt: string }) | null> {
  if (!token) return null
  const claims = verifyJwt(token, await ctx.signingSecret())
  if (!claims || typeof claims.sid !== 'string') return null
  const sessionId = sha256(claims.sid)
  // One query for every request's check (a row per role): the session, the account and its roles.
  const rows = await ctx.db
    .selectFrom('user_session as s')
    .innerJoin('app_user as u', 'u.id', 's.user_id')
    .leftJoin('user_role as r', 'r.user_id', 's.user_id')
    .select(['s.user_id', 's.expires_at', 's.revoked_at', 's.second_factor', 'u.status', 'r.role'])
    .where('s.id', '=', sessionId)
    .execute()
  const row = rows[0]
  if (!row || row.revoked_at || row.expires_at <= nowIso() || row.status !== 'Active') return null
  return {
    userId: row.user_id,
    sessionId,
    roles: rows.flatMap((r) => (r.role == null ? [] : [r.role])),
    expiresAt: row.expires_at,
    ...(row.second_factor === 'setup' ? { secondFactorSetup: true } : {}),
  }
}

/** Same session, fresh claims (after a change to the account). */
export async function refreshToken(ctx: IdentityContext, caller: Caller, token: string) {
  const { db } = ctx
  const claims = verifyJwt(token, await ctx.signingSecret())
  const loaded = await loadUser(ctx, db, caller.userId)
  if (!claims || !loaded) throw unauthorized()
  const session = await db
    .selectFrom('user_session')
    .select(['expires_at', 'second_factor'])
    .where('id', '=', caller.sessionId)
    .executeTakeFirstOrThrow()
  return tokenFor(ctx, db, loaded.user, String(claims.sid), session.expires_at, session.second_factor)
}

export async function logout({ db }: IdentityContext, caller: Caller, info: CallInfo) {
  await db
    .updateTable('user_session')
    .set({ revoked_at: nowIso() })
    .where('id', '=', caller.sessionId)
    .where('user_id', '=', caller.userId)
    .execute()
  return { message: apiMessage(info.locale, 'loggedOut') }
}
