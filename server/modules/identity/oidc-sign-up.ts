import type { Locale } from '#server/db/schema.ts'
import type { SignupKind } from './contract.ts'
import { limit, nowIso, type CallInfo, type IdentityContext } from './context.ts'
import { failedRegister, linkIdentity } from './oidc-sign-in.ts'
import { awardProfilePoints } from './points.ts'
import { companyNameFor, insertAccount } from './registration.ts'
import { roleOfKind } from './rules.ts'
import { startSession } from './sessions.ts'
import { sha256 } from './tokens.ts'

/**
 * Finishes signing up through a provider: the ticket of the sign-in carries the claims, the form
 * adds the kind of account and the names. The address is the provider's, confirmed; the account
 * has no password and is active at once.
 */
export async function registerWithThirdPart(
  ctx: IdentityContext,
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
  await limit(ctx, ctx.limits.registerIp, info.ip)
  return ctx.db.transaction().execute(async (trx) => {
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
    const userId = await insertAccount(
      trx,
      {
        email: claims.email,
        emailVerified: true,
        passwordHash: null,
        firstName: input.firstName,
        lastName: input.lastName,
        companyName: companyNameFor(input.accountType, input.companyName),
        language: input.language ?? info.locale,
        accountType: input.accountType,
        status: 'Active',
        provider: flow.provider,
      },
      roleOfKind[input.accountType],
    )
    await linkIdentity(trx, userId, flow.provider, claims)
    await awardProfilePoints(trx, userId)
    return startSession(ctx, trx, userId, flow.provider, info)
  })
}
