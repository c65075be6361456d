import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { alertsContract as c } from './contract.ts'
import type { AlertsService } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function alertsRoutes(alerts: AlertsService) {
  return [
    implement(c.list, ({ ctx }) => alerts.searches.list(me(ctx.caller))),
    implement(c.get, ({ params, ctx }) => alerts.searches.get(me(ctx.caller), params.id)),
    implement(c.create, ({ body, ctx }) => alerts.searches.create(me(ctx.caller), body)),
    implement(c.change, ({ params, body, ctx }) => alerts.searches.change(me(ctx.caller), params.id, body)),
    implement(c.remove, async ({ params, ctx }) => {
      await alerts.searches.remove(me(ctx.caller), params.id)
      return { deleted: true as const }
    }),
    implement(c.unsubscribe, ({ body }) => alerts.unsubscribe(body.token)),
  ]
}
