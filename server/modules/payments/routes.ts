import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { paymentsContract as c } from './contract.ts'
import type { PaymentsService } from './service.ts'
import type { PaymentDetails } from './details.ts'
import type { SandboxCheckout } from './gateways/sandbox-checkout.ts'
import type { Payouts } from './payouts.ts'
import type { PayoutAccounts } from './payout-accounts.ts'
import type { SandboxOnboarding } from './gateways/sandbox-onboarding.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function paymentsRoutes(
  payments: PaymentsService,
  details: PaymentDetails,
  sandbox: SandboxCheckout,
  payouts: Payouts,
  onboarding: { accounts: PayoutAccounts; sandbox: SandboxOnboarding },
) {
  return [
    implement(c.quote, ({ query, ctx }) =>
      payments.quote(me(ctx.caller), query.projectId, query.installmentIds),
    ),
    implement(c.pay, ({ body, ctx }) => payments.pay(me(ctx.caller), body)),
    // The signature covers the exact bytes: the body is read as text, not parsed first.
    implement(c.callback, async ({ query, ctx }) =>
      payments.callback(query.gateway, await ctx.request.text(), ctx.request.headers),
    ),
    implement(c.costDetails, ({ params, ctx }) => details.cost(me(ctx.caller), params.projectId)),
    implement(c.paidDetails, ({ params, ctx }) => details.paid(me(ctx.caller), params.projectId)),
    implement(c.balances, ({ ctx }) => payments.balances(me(ctx.caller))),
    implement(c.payouts, ({ ctx }) => payouts.list(me(ctx.caller))),
    implement(c.payout, ({ body, ctx }) => payouts.request(me(ctx.caller), body)),
    implement(c.payoutAccount, ({ ctx }) => onboarding.accounts.status(me(ctx.caller))),
    implement(c.payoutOnboarding, ({ ctx }) => onboarding.accounts.start(me(ctx.caller))),
    implement(c.sandboxAccount, ({ params }) => onboarding.sandbox.session(params.account)),
    implement(c.sandboxOnboard, ({ params, body }) => onboarding.sandbox.submit(params.account, body)),
    implement(c.sandboxSession, ({ params }) => sandbox.session(params.token)),
    implement(c.sandboxPay, ({ params, body }) => sandbox.pay(params.token, body)),
    implement(c.sandboxConfirm, ({ params, body }) => sandbox.confirm(params.token, body.approve)),
  ]
}
