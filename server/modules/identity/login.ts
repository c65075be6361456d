import { unauthorized } from '#server/api/errors.ts'
import type { CallInfo, IdentityContext } from './context.ts'
import { limit } from './context.ts'
import { recognizeDevice, rememberDevice } from './devices.ts'
import { resendVerification } from './email-verification.ts'
import { dummyHash, verifyPassword } from './passwords.ts'
import { signInOrChallenge } from './second-factor-sign-in.ts'
import { assertCanSignIn } from './sessions.ts'

/**
 * Signing in with an email address and a password. Answers a session (or a second-factor
 * challenge) and a device token that lets this browser's later attempts count on their own.
 */
export async function login(
  ctx: IdentityContext,
  input: { email: string; password: string; deviceToken?: string },
  info: CallInfo,
) {
  const { db, limits } = ctx
  await limit(ctx, limits.loginIp, info.ip)
  const user = await db
    .selectFrom('app_user')
    .select(['id', 'email', 'password_hash', 'status', 'first_name', 'language'])
    .where('email', '=', input.email)
    .executeTakeFirst()
  // A device this account signed in from has a limit of its own; every other device shares the
  // address's (an unknown address has no devices, so it answers as any other unknown device).
  const device = user ? recognizeDevice(await ctx.signingSecret(), input.deviceToken, user.id) : null
  const [rule, key] = device ? [limits.loginDevice, device.deviceId] : [limits.loginEmail, input.email]
  await limit(ctx, rule, key)
  // Unknown address, no password (third-party only) and wrong password cost one argon2 each and answer alike.
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash()))
  if (!user || !user.password_hash || !ok || user.status === 'Deleted')
    throw unauthorized('Invalid email or password')
  if (user.status === 'Pending') {
    await resendVerification(ctx, { email: user.email }, info, true).catch(() => {})
  }
  assertCanSignIn(user.status)
  await ctx.rateLimiter.reset(rule, key.toLowerCase())
  const session = await signInOrChallenge(ctx, db, user.id, 'local', info)
  return { ...session, deviceToken: rememberDevice(await ctx.signingSecret(), user.id, device?.deviceId) }
}
