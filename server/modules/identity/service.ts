import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Logger } from '#server/log.ts'
import type { RateLimiter } from '#server/lib/rate-limit.ts'
import { accountDetails, currentUser, sessionUser, updateAccount } from './account-settings.ts'
import { rolesChanged, setStatus } from './account-status.ts'
import type { IdentityContext, Trx } from './context.ts'
import { changeEmail, confirmEmailChange } from './email-change.ts'
import { resendVerification, verifyEmail } from './email-verification.ts'
import { login } from './login.ts'
import { asLocale } from './mails.ts'
import type { Oidc } from './oidc.ts'
import { loginWithThirdPart, thirdPartyAuthorize } from './oidc-sign-in.ts'
import { registerWithThirdPart } from './oidc-sign-up.ts'
import { changePassword } from './password-change.ts'
import { closeAccount } from './close-account.ts'
import { adminResetPassword, forgetPassword, mailPasswordReset, resetPassword } from './password-reset.ts'
import { awardPoints } from './points.ts'
import { register } from './registration.ts'
import { defaultLimits, type Limits } from './rules.ts'
import {
  disableSecondFactor,
  enableSecondFactor,
  secondFactorStatus,
  setUpSecondFactor,
} from './second-factor-settings.ts'
import { completeSignIn } from './second-factor-sign-in.ts'
import { authenticate, logout } from './sessions.ts'
import { createDemoAccounts, createAdmin, hasNoAccounts } from './setup-accounts.ts'
import { createSigningSecret } from './signing-secret.ts'

export { SESSIONS_ENDED_TOPIC, type Limits } from './rules.ts'
export type { CallInfo } from './context.ts'

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
  closingBlocker?: IdentityContext['closingBlocker']
}

type Use<A extends unknown[], R> = (ctx: IdentityContext, ...args: A) => R

/**
 * Accounts, sign-in and sessions, assembled from one module per use case: registration, login
 * and sessions, email verification, password reset and change, email change, account settings,
 * two-factor sign-in, OpenID Connect, and the admin module's hooks.
 */
export function createIdentityService(options: IdentityOptions) {
  const ctx: IdentityContext = {
    db: options.db,
    log: options.log,
    rateLimiter: options.rateLimiter,
    oidc: options.oidc,
    limits: { ...defaultLimits, ...options.limits },
    publicUrl: options.publicUrl,
    signingSecret: createSigningSecret(options.db, options.secret),
    profileCompleteness: options.profileCompleteness,
    nameChanged: options.nameChanged,
    closingBlocker: options.closingBlocker,
  }
  const bind =
    <A extends unknown[], R>(use: Use<A, R>) =>
    (...args: A) =>
      use(ctx, ...args)
  return {
    authenticate: bind(authenticate),
    register: bind(register),
    login: bind(login),
    logout: bind(logout),
    resendVerification: bind(resendVerification),
    verifyEmail: bind(verifyEmail),
    forgetPassword: bind(forgetPassword),
    resetPassword: bind(resetPassword),
    adminResetPassword: bind(adminResetPassword),
    changePassword: bind(changePassword),
    closeAccount: bind(closeAccount),
    changeEmail: bind(changeEmail),
    confirmEmailChange: bind(confirmEmailChange),
    profile: bind(currentUser),
    session: bind(sessionUser),
    profileDetails: bind(accountDetails),
    updateProfile: bind(updateAccount),
    setStatus,
    mailPasswordReset: bind(mailPasswordReset),
    rolesChanged,
    createAdmin: bind(createAdmin),
    createDemoAccounts: bind(createDemoAccounts),
    hasNoAccounts: bind(hasNoAccounts),
    awardPoints,
    thirdPartyProviders: () => ({ data: options.oidc.list() }),
    thirdPartyAuthorize: bind(thirdPartyAuthorize),
    loginWithThirdPart: bind(loginWithThirdPart),
    registerWithThirdPart: bind(registerWithThirdPart),
    asLocale,
    loginSecondFactor: bind(completeSignIn),
    secondFactor: bind(secondFactorStatus),
    secondFactorSetup: bind(setUpSecondFactor),
    secondFactorEnable: bind(enableSecondFactor),
    secondFactorDisable: bind(disableSecondFactor),
  }
}

export type IdentityService = ReturnType<typeof createIdentityService>
