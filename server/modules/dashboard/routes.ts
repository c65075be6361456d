import { implement } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { dashboardContract as c } from './contract.ts'
import type { DashboardService } from './service.ts'

export function dashboardRoutes(dashboard: DashboardService) {
  return [
    implement(c.mine, ({ ctx }) => {
      if (!ctx.caller) throw unauthorized()
      return dashboard.mine(ctx.caller, ctx.locale)
    }),
  ]
}
