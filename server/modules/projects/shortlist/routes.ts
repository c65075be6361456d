import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { shortlistContract as c } from './contract.ts'
import type { Shortlist } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function shortlistRoutes(shortlist: Shortlist) {
  return [
    implement(c.compare, ({ params, ctx }) => shortlist.compare(me(ctx.caller), params.projectId)),
    implement(c.put, ({ params, body, ctx }) => shortlist.put(me(ctx.caller), params.proposalId, body)),
    implement(c.remove, ({ params, ctx }) => shortlist.remove(me(ctx.caller), params.proposalId)),
  ]
}
