import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { hiringContract as c } from './contract.ts'
import type { HiringService } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function hiringRoutes({ requests, admin }: HiringService) {
  return [
    implement(c.create, ({ body, ctx }) => requests.create(me(ctx.caller), ctx.locale, body)),
    implement(c.list, ({ query, ctx }) => requests.list(me(ctx.caller), query)),
    implement(c.get, ({ params, ctx }) => requests.get(me(ctx.caller), params.requestId, ctx.locale)),
    implement(c.cancel, ({ params, ctx }) => requests.cancel(me(ctx.caller), params.requestId, ctx.locale)),
    implement(c.done, ({ params, ctx }) => requests.done(me(ctx.caller), params.requestId, ctx.locale)),
    implement(c.queue, ({ query }) => admin.queue(query)),
    implement(c.adminGet, ({ params, query }) => admin.get(params.requestId, query.q)),
    implement(c.claim, ({ params, ctx }) => admin.claim(me(ctx.caller), params.requestId)),
    implement(c.propose, ({ params, body, ctx }) => admin.propose(me(ctx.caller), params.requestId, body)),
    implement(c.close, ({ params, body, ctx }) => admin.close(me(ctx.caller), params.requestId, body.reason)),
  ]
}
