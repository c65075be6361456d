import { ApiError } from '#server/api/errors.ts'
import type { SessionResult } from './contract.ts'
import { fieldError, later, limit, nowIso, type CallInfo, type IdentityContext, type Trx } from './context.ts'
import type { ExternalClaims } from './oidc.ts'
import { awardProfilePoints } from './points.ts'
import { lifetimes } from './rules.ts'
import { signInOrChallenge } from './second-factor-sign-in.ts'
import { assertCanSignIn } from './sessions.ts'
import { randomToken, sha256 } from './tokens.ts'

// Signing in through an OpenID Connect provider: the flow's state is kept in oidc_flow between
// the redirect out and the callback; an address the provider vouches for links to its account,
// and an unknown one gets a ticket to finish signing up (oidc-sign-up.ts).

export const failedLogin = (detail = 'Failed To Login') =>
  new ApiError(400, 'Failed', detail, { thirdParty: ['Failed To Login'] })
export const failedRegister = (detail = 'Failed To Register') =>
  new ApiError(400, 'Failed', detail, { thirdParty: ['Failed To Register'] })

type Flow = { id: string; provider: string; redirect_uri: string }

const signedInWith = (
  result: SessionResult | { twoFactorRequired: true; challenge: string; expiresAt: string },
) =>
  'challenge' in result
    ? { status: 'two-factor-required' as const, ...result }
    : { status: 'signed-in' as const, ...result }

/** The provider's address to send the browser to, with a new flow's state, nonce and PKCE verifier. */
export async function thirdPartyAuthorize(
  ctx: IdentityContext,
  input: { provider: string; redirectUri: string },
  info: CallInfo,
) {
  const { db, oidc } = ctx
  await limit(ctx, ctx.limits.loginIp, info.ip)
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
    ctx.log.warn({ err: error, provider: input.provider }, 'OpenID Connect provider unreachable')
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

/** The callback: the flow its state names (spent at once) and the claims the provider gives for it. */
async function finishFlow(ctx: IdentityContext, callbackUrl: string) {
  const { db } = ctx
  const url = new URL(callbackUrl)
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
  try {
    const claims = await ctx.oidc.finish(flow.provider, url, {
      state,
      nonce: flow.nonce,
      codeVerifier: flow.code_verifier,
    })
    return { flow, claims }
  } catch (error) {
    ctx.log.info({ err: error, provider: flow.provider }, 'OpenID Connect sign-in failed')
    throw failedLogin()
  }
}

/** Records that `userId` signs in as the provider's `subject`, in the caller's transaction. */
export async function linkIdentity(
  trx: Trx,
  userId: number,
  provider: string,
  claims: { subject: string; email: string | null },
) {
  await trx
    .insertInto('external_identity')
    .values({ user_id: userId, provider, subject: claims.subject, email: claims.email, created_at: nowIso() })
    .execute()
}

/** Links the provider's identity to the account that has the address it vouched for, activating it, and signs in. */
async function linkAndSignIn(
  ctx: IdentityContext,
  userId: number,
  flow: Flow,
  claims: ExternalClaims,
  info: CallInfo,
) {
  return ctx.db.transaction().execute(async (trx) => {
    await linkIdentity(trx, userId, flow.provider, claims)
    await trx.updateTable('app_user').set({ email_verified: 1 }).where('id', '=', userId).execute()
    await trx
      .updateTable('app_user')
      .set({ status: 'Active' })
      .where('id', '=', userId)
      .where('status', '=', 'Pending')
      .execute()
    const now = await trx
      .selectFrom('app_user')
      .select('status')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    assertCanSignIn(now.status)
    await awardProfilePoints(trx, userId)
    return signInOrChallenge(ctx, trx, userId, flow.provider, info)
  })
}

/** An unknown person with a vouched address: a ticket that carries the claims to the sign-up form. */
async function registrationTicket(
  ctx: IdentityContext,
  flow: Flow,
  claims: ExternalClaims & { email: string },
) {
  const ticket = randomToken()
  await ctx.db
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

export async function loginWithThirdPart(
  ctx: IdentityContext,
  input: { callbackUrl: string },
  info: CallInfo,
) {
  const { db } = ctx
  await limit(ctx, ctx.limits.loginIp, info.ip)
  const { flow, claims } = await finishFlow(ctx, input.callbackUrl)
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
    return signedInWith(await signInOrChallenge(ctx, db, linked.id, flow.provider, info))
  }
  // A provider that vouches for the address links it to the account that already has it.
  if (claims.email && claims.emailVerified) {
    const byEmail = await db
      .selectFrom('app_user')
      .select(['id', 'status'])
      .where('email', '=', claims.email)
      .executeTakeFirst()
    if (byEmail && byEmail.status !== 'Deleted')
      return signedInWith(await linkAndSignIn(ctx, byEmail.id, flow, claims, info))
  }
  if (!claims.email || !claims.emailVerified)
    throw failedRegister('Failed To Register: the provider did not confirm an email address')
  return registrationTicket(ctx, flow, { ...claims, email: claims.email })
}
