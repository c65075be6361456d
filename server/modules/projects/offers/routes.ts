import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import type { OutboxHandler } from '#server/jobs/outbox.ts'
import { offersContract as c } from './contract.ts'
import type { Offers } from './service.ts'
import { OFFER_EXPIRY_TOPIC } from './shared.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function offersRoutes(offers: Offers) {
  return [
    implement(c.create, ({ body, ctx }) => offers.create(me(ctx.caller), body, ctx.locale)),
    implement(c.sent, ({ query, ctx }) => offers.sent(me(ctx.caller), query, ctx.locale)),
    implement(c.received, ({ query, ctx }) => offers.received(me(ctx.caller), query, ctx.locale)),
    implement(c.show, ({ params, ctx }) => offers.show(me(ctx.caller), params.offerId, ctx.locale)),
    implement(c.accept, ({ params, ctx }) => offers.accept(me(ctx.caller), params.offerId, ctx.locale)),
    implement(c.decline, ({ params, body, ctx }) =>
      offers.decline(me(ctx.caller), params.offerId, body.reason, ctx.locale),
    ),
    implement(c.withdraw, ({ params, ctx }) => offers.withdraw(me(ctx.caller), params.offerId, ctx.locale)),
  ]
}

/** The offers' timer: an offer still pending at its time expires (decision 342). */
export const offersOutboxHandlers = (offers: Offers): Record<string, OutboxHandler> => ({
  [OFFER_EXPIRY_TOPIC]: (payload: { offerId: number }) => offers.expire(payload),
})
