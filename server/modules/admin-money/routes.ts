import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { adminMoneyContract as c } from './contract.ts'
import type { AdminMoney } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function adminMoneyRoutes(money: AdminMoney) {
  return [
    implement(c.dashboard, ({ query }) => money.dashboard(query.weeks)),
    implement(c.payments, () => money.overview()),
    implement(c.reconcile, ({ body, ctx }) => money.reconcile(me(ctx.caller), body.reason)),
    implement(c.checkHealth, () => money.checkHealth()),
  ]
}
