import { implement, type RequestContext } from '#server/api/handler.ts'
import { identityContract as c } from './contract.ts'
import type { CallInfo, IdentityService } from './service.ts'

export const bearerOf = (request: Request) => {
  const header = request.headers.get('authorization') ?? ''
  return header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : null
}

const info = (ctx: RequestContext): CallInfo => ({
  ip: ctx.ip,
  locale: ctx.locale,
  userAgent: ctx.request.headers.get('user-agent') ?? undefined,
})

export function identityRoutes(identity: IdentityService) {
  return [
    implement(c.register, ({ body, ctx }) => identity.register(body, info(ctx))),
    implement(c.login, ({ body, ctx }) => identity.login(body, info(ctx))),
    implement(c.loginSecondFactor, ({ body, ctx }) => identity.loginSecondFactor(body, info(ctx))),
    implement(c.secondFactor, ({ ctx }) => identity.secondFactor(ctx.caller!)),
    implement(c.secondFactorSetup, ({ ctx }) => identity.secondFactorSetup(ctx.caller!)),
    implement(c.secondFactorEnable, ({ body, ctx }) =>
      identity.secondFactorEnable(ctx.caller!, body, info(ctx)),
    ),
    implement(c.secondFactorDisable, ({ body, ctx }) => identity.secondFactorDisable(ctx.caller!, body)),
    implement(c.logout, ({ ctx }) => identity.logout(ctx.caller!, info(ctx))),
    implement(c.verifyEmail, ({ query, ctx }) => identity.verifyEmail(query.token, info(ctx))),
    implement(c.resendVerification, ({ body, ctx }) => identity.resendVerification(body, info(ctx))),
    implement(c.forgetPassword, ({ body, ctx }) => identity.forgetPassword(body, info(ctx))),
    implement(c.resetPassword, ({ body, ctx }) => identity.resetPassword(body, info(ctx))),
    implement(c.adminResetPassword, ({ params, ctx }) =>
      identity.adminResetPassword(ctx.caller!, params.id, info(ctx)),
    ),
    implement(c.changePassword, ({ body, ctx }) => identity.changePassword(ctx.caller!, body, info(ctx))),
    implement(c.closeAccount, ({ body, ctx }) => identity.closeAccount(ctx.caller!, body, info(ctx))),
    implement(c.changeEmail, ({ body, ctx }) => identity.changeEmail(ctx.caller!, body, info(ctx))),
    implement(c.confirmEmailChange, ({ query, ctx }) => identity.confirmEmailChange(query.token, info(ctx))),
    implement(c.profile, ({ ctx }) => identity.profile(ctx.caller!)),
    implement(c.session, ({ ctx }) => identity.session(ctx.caller!)),
    implement(c.profileDetails, ({ ctx }) => identity.profileDetails(ctx.caller!)),
    implement(c.updateProfile, ({ body, ctx }) =>
      identity.updateProfile(ctx.caller!, bearerOf(ctx.request)!, body),
    ),
    implement(c.thirdPartyProviders, () => identity.thirdPartyProviders()),
    implement(c.thirdPartyAuthorize, ({ body, ctx }) => identity.thirdPartyAuthorize(body, info(ctx))),
    implement(c.loginWithThirdPart, ({ body, ctx }) => identity.loginWithThirdPart(body, info(ctx))),
    implement(c.registerWithThirdPart, ({ body, ctx }) => identity.registerWithThirdPart(body, info(ctx))),
  ]
}
