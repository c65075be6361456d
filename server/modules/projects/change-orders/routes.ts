import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { changeOrdersContract as c } from './contract.ts'
import type { ChangeOrders } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function changeOrdersRoutes(orders: ChangeOrders) {
  return [
    implement(c.list, ({ params, ctx }) => orders.list(me(ctx.caller), params.projectId)),
    implement(c.propose, ({ params, body, ctx }) => orders.propose(me(ctx.caller), params.projectId, body)),
    implement(c.accept, ({ params, ctx }) =>
      orders.accept(me(ctx.caller), params.projectId, params.changeOrderId),
    ),
    implement(c.reject, ({ params, body, ctx }) =>
      orders.reject(me(ctx.caller), params.projectId, params.changeOrderId, body.reason),
    ),
    implement(c.withdraw, ({ params, ctx }) =>
      orders.withdraw(me(ctx.caller), params.projectId, params.changeOrderId),
    ),
  ]
}
