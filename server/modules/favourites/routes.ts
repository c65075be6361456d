import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { favouritesContract as c } from './contract.ts'
import type { Favourites } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function favouritesRoutes(favourites: Favourites) {
  return [
    implement(c.list, ({ query, ctx }) => favourites.list(me(ctx.caller), ctx.locale, query)),
    implement(c.among, ({ query, ctx }) => favourites.among(me(ctx.caller), query.userIds)),
    implement(c.add, ({ params, ctx }) => favourites.add(me(ctx.caller), params.userId)),
    implement(c.remove, ({ params, ctx }) => favourites.remove(me(ctx.caller), params.userId)),
  ]
}
