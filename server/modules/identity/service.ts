import fs from 'node:fs'
import path from 'node:path'
import type { Kysely, Transaction } from 'kysely'
import type { AccountType, Database, Locale } from '../../db/schema.ts'
import type { Logger } from '../../log.ts'
import { ApiError, forbidden, notFound, unauthorized } from '../../api/errors.ts'
import type { Caller } from '../../api/handler.ts'
import { enqueue } from '../../jobs/outbox.ts'
import { EMAIL_TOPIC } from '../../jobs/mailer.ts'
import type { RateLimiter, RateLimitRule } from '../../lib/rate-limit.ts'
import type { CurrentUser, SessionResult, SignupKind } from './contract.ts'
import { asLocale, renderMail, type MailKind } from './mails.ts'
import type { Oidc } from './oidc.ts'
import { dummyHash, hashPassword, verifyPassword } from './passwords.ts'
import { passwordProblem, PASSWORD_MAX, PASSWORD_MIN, type PasswordProblem } from './password-policy.ts'
import { can, permissionsOf, Role } from './permissions.ts'
import { randomToken, sha256, signJwt, verifyJwt } from './tokens.ts'
import { recognizeDevice, rememberDevice } from './devices.ts'
import { relistFreelancer } from '../profiles/listing.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import { storedSecret } from './second-factor.ts'
import { createSecondFactorService } from './second-factor-service.ts'
import { personName } from './display-name.ts'

type Trx = Kysely<Database> | Transaction<Database>

/** Outbox topic: every session of `{ userId }` ended by an admin; its handler closes their hub connections (server/api/index.ts). */
export const SESSIONS_ENDED_TOPIC = 'identity.sessionsEnded'

// Lifetimes (docs/decisions/003-identity.md).
export const lifetimes = {
  sessionMs: 30 * 24 * 3600_000,
  verifyEmailMs: 48 * 3600_000,
  resetPasswordMs: 3600_000,
  changeEmailMs: 24 * 3600_000,
  oidcFlowMs: 10 * 60_000,
  oidcTicketMs: 30 * 60_000,
}

const minute = 60_000
// Sign-in attempts (decision 091): every attempt counts against its client address; an attempt from
// a device that signed in to the account before counts against that device only, any other against
// the address being signed in to, so guessing from elsewhere locks out only other unknown devices.
export const defaultLimits = {
  loginIp: { name: 'login:ip', limit: 30, windowMs: 15 * minute },
  loginEmail: { name: 'login:email', limit: 8, windowMs: 15 * minute },
  loginDevice: { name: 'login:device', limit: 10, windowMs: 15 * minute },
  registerIp: { name: 'register:ip', limit: 20, windowMs: 60 * minute },
  registerEmail: { name: 'register:email', limit: 5, windowMs: 60 * minute },
  forgotIp: { name: 'forgot:ip', limit: 10, windowMs: 60 * minute },
  forgotEmail: { name: 'forgot:email', limit: 3, windowMs: 60 * minute },
  verifyIp: { name: 'verify:ip', limit: 30, windowMs: 15 * minute },
  verifyEmail: { name: 'verify:email', limit: 3, windowMs: 60 * minute },
} satisfies Record<string, RateLimitRule>
export type Limits = typeof defaultLimits

// Reputation points (wengazPoint) awarded once per reason; other modules add their own reasons
// (a completed contract, a five-star review) through awardPoints.
export const pointRules = { emailVerified: 10, phoneAdded: 5, imageAdded: 5, profileComplete: 10 }

const messagesRoot = path.resolve(import.meta.dirname, '../../../locales')
const messageCache = new Map<Locale, Record<string, string>>()
/** The API's own sentences (shown by the UI as "the server's message"), in the caller's language. */
export function apiMessage(locale: Locale, key: string) {
  let m = messageCache.get(locale)
  if (!m)
    messageCache.set(
      locale,
      (m = JSON.parse(fs.readFileSync(path.join(messagesRoot, locale, 'email.json'), 'utf8'))
        .messages as Record<string, string>),
    )
  return m[key] ?? key
}

const nowIso = () => new Date().toISOString()
const later = (ms: number) => new Date(Date.now() + ms).toISOString()

const passwordText: Record<PasswordProblem, string> = {
  tooShort: `must be at least ${PASSWORD_MIN} characters`,
  tooLong: `must be at most ${PASSWORD_MAX} characters`,
  common: 'is too common; choose one that is harder to guess',
  sameAsEmail: 'must not be your email address',
}
function checkPassword(field: string, password: string, email?: string) {
  const problem = passwordProblem(password, email)
  if (problem)
    throw new ApiError(400, 'Invalid Info', `${field}: ${passwordText[problem]}`, {
      [field]: [passwordText[problem]],
    })
}
const fieldError = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })

export function tooManyRequests(retryAfter: number) {
  const error = new ApiError(
    429,
    'Too Many Requests',
    `Too many attempts. Try again in ${retryAfter} seconds.`,
  )
  error.headers = { 'retry-after': String(retryAfter) }
  return error
}

export const roleOfKind: Record<SignupKind | 'admin', number> = {
  client: Role.Client,
  company: Role.Company,
  freelancer: Role.Freelancer,
  admin: Role.SuperAdmin,
}

export interface IdentityOptions {
  db: Kysely<Database>
  log: Logger
  rateLimiter: RateLimiter
  oidc: Oidc
  /** the site's address (PUBLIC_URL), the only base of links in mails: never the request's Host */
  publicUrl: string
  /** AUTH_SECRET; when unset the secret lives in the database, shared by every instance */
  secret?: string
  limits?: Partial<Limits>
  /** The profile's own completeness in percent (profiles module), or null before a profile is started. */
  profileCompleteness?: (executor: Trx, userId: number) => Promise<number | null>
  /** Called in the transaction that changes an account's first or last name (profiles: Find Freelancers searches names). */
  nameChanged?: (executor: Trx, userId: number) => Promise<void>
}

export interface CallInfo {
  ip: string
  locale: Locale
  userAgent?: string
}

export function createIdentityService(options: IdentityOptions) {
  const { db, log, rateLimiter, oidc } = options
  const limits: Limits = { ...defaultLimits, ...options.limits }
  let secret: Promise<string> | undefined

  // Inside a transaction the secret is read through it: SQLite has one connection, and a read on
  // `db` would wait for the very transaction asking (a fresh server's first sign-in through a
  // provider hung so). That read is not kept: the transaction that wrote the secret may roll back.
  function signingSecret(executor: Trx = db) {
    if (options.secret) return Promise.resolve(options.secret)
    if (!secret && executor !== db) return storedSecret(executor)
    return (secret ??= storedSecret(db).catch((error) => {
      secret = undefined
      throw error
    }))
  }

  async function limit(rule: RateLimitRule, key: string) {
    const decision = await rateLimiter.hit(rule, key.toLowerCase())
    if (!decision.ok) throw tooManyRequests(decision.retryAfter)
  }

  const siteUrl = (pathAndQuery: string) => new URL(pathAndQuery, options.publicUrl).href

  async function mail(
    trx: Trx,
    kind: MailKind,
    user: { email: string; first_name: string; language: string },
    link?: string,
    to?: string,
  ) {
    await enqueue(
      trx,
      EMAIL_TOPIC,
      renderMail(kind, { to: to ?? user.email, language: user.language, name: user.first_name, link }),
    )
  }

  async function issueToken(
    trx: Trx,
    userId: number,
    purpose: 'verify_email' | 'reset_password' | 'change_email',
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
  async function consumeToken(
    trx: Trx,
    token: string,
    purpose: 'verify_email' | 'reset_password' | 'change_email',
  ) {
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

  async function awardPoints(trx: Trx, userId: number, reason: string, points: number, ref = '') {
    await trx
      .insertInto('wengaz_point_event')
      .values({ user_id: userId, reason, ref, points, created_at: nowIso() })
      .onConflict((oc) => oc.columns(['user_id', 'reason', 'ref']).doNothing())
      .execute()
  }

  /** Profile completeness, in percent: name, confirmed email, phone and image, a quarter each. */
  function completeness(u: {
    first_name: string
    last_name: string
    email_verified: number
    phone_number: string | null
    image_file_id: number | null
  }) {
    const parts = [
      !!(u.first_name && u.last_name),
      u.email_verified === 1,
      !!u.phone_number,
      u.image_file_id != null,
    ]
    return Math.round((parts.filter(Boolean).length / parts.length) * 100)
  }

  /** Points that follow from the profile itself; awarded once each, so they are never taken back. */
  async function awardProfilePoints(trx: Trx, userId: number) {
    const u = await trx.selectFrom('app_user').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
    if (u.email_verified === 1) await awardPoints(trx, userId, 'email-verified', pointRules.emailVerified)
    if (u.phone_number) await awardPoints(trx, userId, 'phone-added', pointRules.phoneAdded)
    if (u.image_file_id != null) await awardPoints(trx, userId, 'image-added', pointRules.imageAdded)
    if (completeness(u) === 100)
      await awardPoints(trx, userId, 'profile-complete', pointRules.profileComplete)
  }

  async function loadUser(trx: Trx, userId: number) {
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
    const profilePercent = (await options.profileCompleteness?.(trx, userId)) ?? null
    const user: CurrentUser = {
      id: u.id,
      firstName: u.first_name,
      lastName: u.last_name,
      // SPEC §3: the token's name is first and last joined, a company's person included.
      name: personName(u),
      imageUrl: u.image_file_id != null ? `files/${u.image_file_id}/download` : null,
      email: u.email,
      status: u.status,
      phoneNumber: u.phone_number,
      roles: roles.map((r) => r.role),
      wengazPoint: Number(points?.total ?? 0),
      wengazPercentage:
        profilePercent == null ? completeness(u) : Math.round((completeness(u) + profilePercent) / 2),
      Provider: u.provider,
    }
    return { row: u, user }
  }

  // `mfa: 'setup'` tells the web UI this session may only set up two-factor sign-in (decision 260).
  async function tokenFor(
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
    return { token: signJwt(claims, await signingSecret(executor)), expiresAt, user }
  }

  // Every sign-in starts a new session with a new random id (never one the browser brought).
  async function startSession(
    trx: Trx,
    userId: number,
    provider: string,
    info: CallInfo | { ip: string; userAgent?: string },
    secondFactor?: 'setup',
  ): Promise<SessionResult> {
    const sid = randomToken()
    const expiresAt = later(lifetimes.sessionMs)
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
    const loaded = await loadUser(trx, userId)
    return tokenFor(trx, loaded!.user, sid, expiresAt, secondFactor)
  }

  async function revokeSessions(trx: Trx, userId: number, exceptSessionId?: string) {
    let q = trx
      .updateTable('user_session')
      .set({ revoked_at: nowIso() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
    if (exceptSessionId) q = q.where('id', '!=', exceptSessionId)
    await q.execute()
  }

  const secondFactor = createSecondFactorService({
    db,
    rateLimiter,
    signingSecret,
    startSession,
    revokeSessions: (trx, userId) => revokeSessions(trx, userId),
    tooManyRequests,
  })

  function assertCanSignIn(status: string) {
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

  // ---- the bearer token ---------------------------------------------------------------------

  /** The caller a bearer token names, if its session is live and its user may act; else null. */
  async function authenticate(
    token: string | null | undefined,
  ): Promise<(Caller & { expiresAt: string }) | null> {
    if (!token) return null
    const claims = verifyJwt(token, await signingSecret())
    if (!claims || typeof claims.sid !== 'string') return null
    const sessionId = sha256(claims.sid)
    // One query for every request's check (a row per role): the session, the account and its roles.
    const rows = await db
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

  /** Same session, fresh claims (after a profile change). */
  async function refreshToken(caller: Caller & { sid?: string }, token: string) {
    const claims = verifyJwt(token, await signingSecret())
    const loaded = await loadUser(db, caller.userId)
    if (!claims || !loaded) throw unauthorized()
    const session = await db
      .selectFrom('user_session')
      .select(['expires_at', 'second_factor'])
      .where('id', '=', caller.sessionId)
      .executeTakeFirstOrThrow()
    return tokenFor(db, loaded.user, String(claims.sid), session.expires_at, session.second_factor)
  }

  // ---- accounts -------------------------------------------------------------------------------

  async function register(
    input: {
      accountType: SignupKind
      firstName: string
      lastName: string
      companyName?: string
      email: string
      password: string
      phoneNumber?: string
      language?: Locale
      acceptTerms: true
    },
    info: CallInfo,
  ) {
    await limit(limits.registerIp, info.ip)
    await limit(limits.registerEmail, input.email)
    checkPassword('password', input.password, input.email)
    // Hash first, whatever happens next, so a known address answers in the same time.
    const hash = await hashPassword(input.password)
    const language = input.language ?? info.locale
    await db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('app_user')
        .select(['id', 'email', 'first_name', 'language', 'status'])
        .where('email', '=', input.email)
        .executeTakeFirst()
      if (existing) {
        // No account discovery: the answer is the same; the owner is told by mail instead.
        if (existing.status !== 'Deleted')
          await mail(trx, 'accountExists', existing, siteUrl('/auth/forgot-password'))
        return
      }
      const now = nowIso()
      const user = await trx
        .insertInto('app_user')
        .values({
          email: input.email,
          email_verified: 0,
          password_hash: hash,
          first_name: input.firstName,
          last_name: input.lastName,
          company_name: input.accountType === 'company' ? (input.companyName ?? null) : null,
          phone_number: input.phoneNumber ?? null,
          language,
          account_type: input.accountType,
          status: 'Pending',
          image_file_id: null,
          provider: 'local',
          terms_accepted_at: now,
          created_at: now,
          updated_at: now,
        })
        .returning(['id', 'email', 'first_name', 'language'])
        .executeTakeFirstOrThrow()
      await trx
        .insertInto('user_role')
        .values({ user_id: user.id, role: roleOfKind[input.accountType] })
        .execute()
      const token = await issueToken(trx, user.id, 'verify_email', lifetimes.verifyEmailMs)
      await mail(trx, 'verifyEmail', user, siteUrl(`/auth/verify-email?token=${token}`))
    })
    return { message: apiMessage(info.locale, 'registered'), email: input.email }
  }

  async function login(input: { email: string; password: string; deviceToken?: string }, info: CallInfo) {
    await limit(limits.loginIp, info.ip)
    const user = await db
      .selectFrom('app_user')
      .select(['id', 'email', 'password_hash', 'status', 'first_name', 'language'])
      .where('email', '=', input.email)
      .executeTakeFirst()
    // A device this account signed in from has a limit of its own; every other device shares the
    // address's (an unknown address has no devices, so it answers as any other unknown device).
    const device = user ? recognizeDevice(await signingSecret(), input.deviceToken, user.id) : null
    const [rule, key] = device ? [limits.loginDevice, device.deviceId] : [limits.loginEmail, input.email]
    await limit(rule, key)
    // Unknown address, no password (third-party only) and wrong password cost one argon2 each and answer alike.
    const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash()))
    if (!user || !user.password_hash || !ok || user.status === 'Deleted')
      throw unauthorized('Invalid email or password')
    if (user.status === 'Pending') {
      await resendVerification({ email: user.email }, info, true).catch(() => {})
    }
    assertCanSignIn(user.status)
    await rateLimiter.reset(rule, key.toLowerCase())
    const session = await secondFactor.signIn(db, user.id, 'local', info)
    return { ...session, deviceToken: rememberDevice(await signingSecret(), user.id, device?.deviceId) }
  }

  async function logout(caller: Caller, info: CallInfo) {
    await db
      .updateTable('user_session')
      .set({ revoked_at: nowIso() })
      .where('id', '=', caller.sessionId)
      .where('user_id', '=', caller.userId)
      .execute()
    return { message: apiMessage(info.locale, 'loggedOut') }
  }

  async function resendVerification(input: { email: string }, info: CallInfo, quiet = false) {
    if (!quiet) await limit(limits.verifyIp, info.ip)
    const decision = await rateLimiter.hit(limits.verifyEmail, input.email.toLowerCase())
    if (decision.ok) {
      await db.transaction().execute(async (trx) => {
        const user = await trx
          .selectFrom('app_user')
          .select(['id', 'email', 'first_name', 'language', 'status'])
          .where('email', '=', input.email)
          .executeTakeFirst()
        if (!user || user.status !== 'Pending') return
        const token = await issueToken(trx, user.id, 'verify_email', lifetimes.verifyEmailMs)
        await mail(trx, 'verifyEmail', user, siteUrl(`/auth/verify-email?token=${token}`))
      })
    } else if (!quiet) throw tooManyRequests(decision.retryAfter)
    return { message: apiMessage(info.locale, 'verificationSent') }
  }

  async function verifyEmail(token: string, info: CallInfo) {
    await limit(limits.verifyIp, info.ip)
    const verified = await db.transaction().execute(async (trx) => {
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
    if (!verified)
      throw new ApiError(400, 'Invalid', 'Invalid or expired token', { token: ['is invalid or expired'] })
    return { message: apiMessage(info.locale, 'emailVerified') }
  }

  async function forgetPassword(input: { email: string }, info: CallInfo) {
    await limit(limits.forgotIp, info.ip)
    const decision = await rateLimiter.hit(limits.forgotEmail, input.email.toLowerCase())
    // Over the per-address limit the answer stays the same (it would otherwise tell that the address is known).
    if (decision.ok) await sendReset(input.email)
    return { message: apiMessage(info.locale, 'resetSent') }
  }

  async function sendReset(email: string) {
    await db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom('app_user')
        .select(['id', 'email', 'first_name', 'language', 'status'])
        .where('email', '=', email)
        .executeTakeFirst()
      if (!user || user.status === 'Deleted') return
      const token = await issueToken(trx, user.id, 'reset_password', lifetimes.resetPasswordMs)
      await mail(trx, 'resetPassword', user, siteUrl(`/auth/reset-password?token=${token}`))
    })
  }

  async function resetPassword(input: { token: string; password: string }, info: CallInfo) {
    await limit(limits.verifyIp, info.ip)
    const hashed = hashPassword(input.password)
    const email = await db.transaction().execute(async (trx) => {
      const row = await consumeToken(trx, input.token, 'reset_password')
      if (!row)
        throw new ApiError(400, 'Invalid', 'Invalid or expired token', { token: ['is invalid or expired'] })
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
    await rateLimiter.reset(limits.loginEmail, email.toLowerCase())
    return { message: apiMessage(info.locale, 'passwordReset') }
  }

  async function adminResetPassword(caller: Caller, userId: number, info: CallInfo) {
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
    await sendReset(user.email)
    return { message: apiMessage(info.locale, 'resetSent') }
  }

  async function changePassword(
    caller: Caller,
    input: { currentPassword: string; newPassword: string },
    info: CallInfo,
  ) {
    await limit(limits.loginIp, info.ip)
    const user = await db
      .selectFrom('app_user')
      .select(['id', 'email', 'password_hash', 'first_name', 'language'])
      .where('id', '=', caller.userId)
      .executeTakeFirstOrThrow()
    const ok = await verifyPassword(input.currentPassword, user.password_hash ?? (await dummyHash()))
    if (!user.password_hash || !ok) throw fieldError('currentPassword', 'is not your current password')
    checkPassword('newPassword', input.newPassword, user.email)
    const hash = await hashPassword(input.newPassword)
    const result = await db.transaction().execute(async (trx) => {
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
        trx,
        user.id,
        'local',
        info,
        current?.second_factor === 'setup' ? 'setup' : undefined,
      )
    })
    return result
  }

  async function changeEmail(caller: Caller, input: { newEmail: string; password: string }, info: CallInfo) {
    await limit(limits.forgotIp, info.ip)
    const user = await db
      .selectFrom('app_user')
      .select(['id', 'email', 'password_hash', 'first_name', 'language'])
      .where('id', '=', caller.userId)
      .executeTakeFirstOrThrow()
    if (user.password_hash) {
      if (!(await verifyPassword(input.password, user.password_hash)))
        throw fieldError('password', 'is not your current password')
    }
    if (input.newEmail === user.email) throw fieldError('newEmail', 'is already your address')
    const taken = await db
      .selectFrom('app_user')
      .select('id')
      .where('email', '=', input.newEmail)
      .executeTakeFirst()
    if (taken) throw fieldError('newEmail', 'is already in use')
    await db.transaction().execute(async (trx) => {
      const token = await issueToken(trx, user.id, 'change_email', lifetimes.changeEmailMs, input.newEmail)
      await mail(trx, 'changeEmail', user, siteUrl(`/auth/confirm-email?token=${token}`), input.newEmail)
    })
    return { message: apiMessage(info.locale, 'emailChangeSent') }
  }

  async function confirmEmailChange(token: string, info: CallInfo) {
    await limit(limits.verifyIp, info.ip)
    await db.transaction().execute(async (trx) => {
      const row = await consumeToken(trx, token, 'change_email')
      if (!row || !row.data)
        throw new ApiError(400, 'Invalid', 'Invalid or expired token', { token: ['is invalid or expired'] })
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

  async function profile(caller: Caller) {
    const loaded = await loadUser(db, caller.userId)
    if (!loaded) throw unauthorized()
    return loaded.user
  }

  async function profileDetails(caller: Caller) {
    const loaded = await loadUser(db, caller.userId)
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

  async function updateProfile(
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
    await db.transaction().execute(async (trx) => {
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
        await options.nameChanged?.(trx, caller.userId)
      await awardProfilePoints(trx, caller.userId)
    })
    return refreshToken(caller, token)
  }

  /**
   * For the admin module, inside its transaction (so its audit row commits with the change):
   * suspend, reactivate or delete an account. Sessions end at once, and the user's hub connections
   * right after commit on every instance (the outbox's SESSIONS_ENDED_TOPIC), not at the next sweep.
   */
  async function setStatus(trx: Trx, userId: number, status: 'Active' | 'Suspended' | 'Deleted') {
    await trx.updateTable('app_user').set({ status, updated_at: nowIso() }).where('id', '=', userId).execute()
    if (status !== 'Active') {
      await revokeSessions(trx, userId)
      await enqueue(trx, SESSIONS_ENDED_TOPIC, { userId })
    }
    await relistFreelancer(trx, userId) // Find Freelancers shows active accounts only
  }

  /** For the admin module, inside its transaction: mail the user a reset link (their password still works until they use it). */
  async function mailPasswordReset(trx: Trx, userId: number) {
    const user = await trx
      .selectFrom('app_user')
      .select(['id', 'email', 'first_name', 'language'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    const token = await issueToken(trx, user.id, 'reset_password', lifetimes.resetPasswordMs)
    await mail(trx, 'resetPassword', user, siteUrl(`/auth/reset-password?token=${token}`))
  }

  /**
   * For the admin module, in the transaction that grants or takes a role: every session of the
   * account ends, so the next sign-in starts a new session id with the new rights (and a new
   * SuperAdmin meets the two-factor rule of decision 260). Decision 261.
   */
  async function rolesChanged(trx: Trx, userId: number) {
    await revokeSessions(trx, userId)
    // After commit, the hubs drop its connections too, as when an account is suspended.
    await enqueue(trx, SESSIONS_ENDED_TOPIC, { userId })
  }

  /** `npm run admin:create`: a SuperAdmin with no password; the reset mail sets one. */
  async function createAdmin(input: {
    email: string
    firstName: string
    lastName: string
    language: Locale
  }) {
    const existing = await db
      .selectFrom('app_user')
      .select(['id'])
      .where('email', '=', input.email)
      .executeTakeFirst()
    const userId = await db.transaction().execute(async (trx) => {
      let id = existing?.id
      if (!id) {
        const now = nowIso()
        const row = await trx
          .insertInto('app_user')
          .values({
            email: input.email,
            email_verified: 1,
            password_hash: null,
            first_name: input.firstName,
            last_name: input.lastName,
            company_name: null,
            phone_number: null,
            language: input.language,
            account_type: 'admin' as AccountType,
            status: 'Active',
            image_file_id: null,
            provider: 'local',
            terms_accepted_at: now,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        id = row.id
      }
      await trx
        .insertInto('user_role')
        .values({ user_id: id, role: Role.SuperAdmin })
        .onConflict((oc) => oc.doNothing())
        .execute()
      const user = await trx
        .selectFrom('app_user')
        .select(['id', 'email', 'first_name', 'language'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      const token = await issueToken(trx, id, 'reset_password', lifetimes.verifyEmailMs)
      await mail(trx, 'resetPassword', user, siteUrl(`/auth/reset-password?token=${token}`))
      return id
    })
    return { userId, created: !existing }
  }

  /**
   * For the demo seed only: active accounts with a confirmed email and one known password, so a
   * newcomer can sign in and look around. The password is hashed once for all of them (argon2 is
   * slow on purpose, and twelve hashes made the first start seconds longer). An address that is
   * taken keeps its account, whose id is returned.
   */
  async function createDemoAccounts(
    accounts: Array<{
      accountType: SignupKind
      firstName: string
      lastName: string
      companyName?: string
      email: string
      language: Locale
    }>,
    password: string,
  ) {
    const hash = await hashPassword(password)
    return db.transaction().execute(async (trx) => {
      const ids = new Map<string, number>()
      for (const input of accounts) {
        const existing = await trx
          .selectFrom('app_user')
          .select('id')
          .where('email', '=', input.email)
          .executeTakeFirst()
        if (existing) {
          ids.set(input.email, existing.id)
          continue
        }
        const now = nowIso()
        const user = await trx
          .insertInto('app_user')
          .values({
            email: input.email,
            email_verified: 1,
            password_hash: hash,
            first_name: input.firstName,
            last_name: input.lastName,
            company_name: input.accountType === 'company' ? (input.companyName ?? null) : null,
            phone_number: null,
            language: input.language,
            account_type: input.accountType,
            status: 'Active',
            image_file_id: null,
            provider: 'local',
            terms_accepted_at: now,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        await trx
          .insertInto('user_role')
          .values({ user_id: user.id, role: roleOfKind[input.accountType] })
          .execute()
        ids.set(input.email, user.id)
      }
      return ids
    })
  }

  /** True while no account exists: the signal to load the demo marketplace on a first start. */
  async function hasNoAccounts() {
    return !(await db.selectFrom('app_user').select('id').limit(1).executeTakeFirst())
  }

  // ---- OpenID Connect -------------------------------------------------------------------------

  async function thirdPartyAuthorize(input: { provider: string; redirectUri: string }, info: CallInfo) {
    await limit(limits.loginIp, info.ip)
    if (!oidc.has(input.provider)) throw fieldError('provider', 'is not configured on this server')
    const state = randomToken()
    const nonce = randomToken()
    const codeVerifier = randomToken(48)
    let authorizationUrl: string
    try {
      authorizationUrl = await oidc.authorizationUrl(input.provider, {
        redirectUri: input.redirectUri,
        state,
        nonce,
        codeVerifier,
      })
    } catch (error) {
      log.warn({ err: error, provider: input.provider }, 'OpenID Connect provider unreachable')
      throw new ApiError(502, 'Failed', 'The sign-in provider cannot be reached')
    }
    await db.deleteFrom('oidc_flow').where('expires_at', '<', nowIso()).execute()
    await db
      .insertInto('oidc_flow')
      .values({
        id: sha256(state),
        provider: input.provider,
        code_verifier: codeVerifier,
        nonce,
        redirect_uri: input.redirectUri,
        claims: null,
        created_at: nowIso(),
        expires_at: later(lifetimes.oidcFlowMs),
      })
      .execute()
    return { authorizationUrl, state }
  }

  const failedLogin = (detail = 'Failed To Login') =>
    new ApiError(400, 'Failed', detail, { thirdParty: ['Failed To Login'] })
  const failedRegister = (detail = 'Failed To Register') =>
    new ApiError(400, 'Failed', detail, { thirdParty: ['Failed To Register'] })

  const signedInWith = (
    result: SessionResult | { twoFactorRequired: true; challenge: string; expiresAt: string },
  ) =>
    'challenge' in result
      ? { status: 'two-factor-required' as const, ...result }
      : { status: 'signed-in' as const, ...result }

  async function loginWithThirdPart(input: { callbackUrl: string }, info: CallInfo) {
    await limit(limits.loginIp, info.ip)
    const url = new URL(input.callbackUrl)
    const state = url.searchParams.get('state')
    if (!state) throw failedLogin()
    const flow = await db
      .selectFrom('oidc_flow')
      .selectAll()
      .where('id', '=', sha256(state))
      .where('claims', 'is', null)
      .where('expires_at', '>', nowIso())
      .executeTakeFirst()
    if (!flow) throw failedLogin('Failed To Login: the sign-in took too long or was already used')
    await db.deleteFrom('oidc_flow').where('id', '=', flow.id).execute()
    let claims
    try {
      claims = await oidc.finish(flow.provider, url, {
        state,
        nonce: flow.nonce,
        codeVerifier: flow.code_verifier,
      })
    } catch (error) {
      log.info({ err: error, provider: flow.provider }, 'OpenID Connect sign-in failed')
      throw failedLogin()
    }
    const linked = await db
      .selectFrom('external_identity as x')
      .innerJoin('app_user as u', 'u.id', 'x.user_id')
      .select(['u.id', 'u.status'])
      .where('x.provider', '=', flow.provider)
      .where('x.subject', '=', claims.subject)
      .executeTakeFirst()
    if (linked) {
      if (linked.status === 'Deleted') throw failedLogin()
      assertCanSignIn(linked.status)
      return signedInWith(await secondFactor.signIn(db, linked.id, flow.provider, info))
    }
    // A provider that vouches for the address links it to the account that already has it.
    if (claims.email && claims.emailVerified) {
      const byEmail = await db
        .selectFrom('app_user')
        .select(['id', 'status'])
        .where('email', '=', claims.email)
        .executeTakeFirst()
      if (byEmail && byEmail.status !== 'Deleted') {
        const session = await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('external_identity')
            .values({
              user_id: byEmail.id,
              provider: flow.provider,
              subject: claims.subject,
              email: claims.email,
              created_at: nowIso(),
            })
            .execute()
          await trx.updateTable('app_user').set({ email_verified: 1 }).where('id', '=', byEmail.id).execute()
          await trx
            .updateTable('app_user')
            .set({ status: 'Active' })
            .where('id', '=', byEmail.id)
            .where('status', '=', 'Pending')
            .execute()
          const now = await trx
            .selectFrom('app_user')
            .select('status')
            .where('id', '=', byEmail.id)
            .executeTakeFirstOrThrow()
          assertCanSignIn(now.status)
          await awardProfilePoints(trx, byEmail.id)
          return secondFactor.signIn(trx, byEmail.id, flow.provider, info)
        })
        return signedInWith(session)
      }
    }
    if (!claims.email || !claims.emailVerified)
      throw failedRegister('Failed To Register: the provider did not confirm an email address')
    const ticket = randomToken()
    await db
      .insertInto('oidc_flow')
      .values({
        id: sha256(ticket),
        provider: flow.provider,
        code_verifier: '',
        nonce: '',
        redirect_uri: flow.redirect_uri,
        claims: JSON.stringify(claims),
        created_at: nowIso(),
        expires_at: later(lifetimes.oidcTicketMs),
      })
      .execute()
    return {
      status: 'registration-required' as const,
      ticket,
      email: claims.email,
      firstName: claims.firstName,
      lastName: claims.lastName,
      provider: flow.provider,
    }
  }

  async function registerWithThirdPart(
    input: {
      ticket: string
      accountType: SignupKind
      firstName: string
      lastName: string
      companyName?: string
      language?: Locale
      acceptTerms: true
    },
    info: CallInfo,
  ) {
    await limit(limits.registerIp, info.ip)
    const result = await db.transaction().execute(async (trx) => {
      const flow = await trx
        .selectFrom('oidc_flow')
        .selectAll()
        .where('id', '=', sha256(input.ticket))
        .where('claims', 'is not', null)
        .where('expires_at', '>', nowIso())
        .executeTakeFirst()
      if (!flow) throw failedRegister('Failed To Register: the sign-up took too long or was already used')
      const claims = JSON.parse(flow.claims!) as { subject: string; email: string; emailVerified: boolean }
      const taken = await trx
        .selectFrom('app_user')
        .select('id')
        .where('email', '=', claims.email)
        .executeTakeFirst()
      if (taken)
        throw failedRegister('Failed To Register: this email address already has an account; sign in instead')
      await trx.deleteFrom('oidc_flow').where('id', '=', flow.id).execute()
      const now = nowIso()
      const user = await trx
        .insertInto('app_user')
        .values({
          email: claims.email,
          email_verified: 1,
          password_hash: null,
          first_name: input.firstName,
          last_name: input.lastName,
          company_name: input.accountType === 'company' ? (input.companyName ?? null) : null,
          phone_number: null,
          language: input.language ?? info.locale,
          account_type: input.accountType,
          status: 'Active',
          image_file_id: null,
          provider: flow.provider,
          terms_accepted_at: now,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await trx
        .insertInto('user_role')
        .values({ user_id: user.id, role: roleOfKind[input.accountType] })
        .execute()
      await trx
        .insertInto('external_identity')
        .values({
          user_id: user.id,
          provider: flow.provider,
          subject: claims.subject,
          email: claims.email,
          created_at: now,
        })
        .execute()
      await awardProfilePoints(trx, user.id)
      return startSession(trx, user.id, flow.provider, info)
    })
    return result
  }

  return {
    authenticate,
    register,
    login,
    logout,
    resendVerification,
    verifyEmail,
    forgetPassword,
    resetPassword,
    adminResetPassword,
    changePassword,
    changeEmail,
    confirmEmailChange,
    profile,
    profileDetails,
    updateProfile,
    setStatus,
    mailPasswordReset,
    rolesChanged,
    createAdmin,
    createDemoAccounts,
    hasNoAccounts,
    awardPoints,
    thirdPartyProviders: () => ({ data: oidc.list() }),
    thirdPartyAuthorize,
    loginWithThirdPart,
    registerWithThirdPart,
    asLocale,
    loginSecondFactor: secondFactor.complete,
    secondFactor: secondFactor.status,
    secondFactorSetup: secondFactor.setup,
    secondFactorEnable: secondFactor.enable,
    secondFactorDisable: secondFactor.disable,
  }
}

export type IdentityService = ReturnType<typeof createIdentityService>
