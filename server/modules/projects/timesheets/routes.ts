import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { timesheetsContract as c } from './contract.ts'
import type { Timesheets } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function timesheetsRoutes(sheets: Timesheets) {
  return [
    implement(c.show, ({ params, query, ctx }) => sheets.show(me(ctx.caller), params.projectId, query.week)),
    implement(c.add, ({ params, body, ctx }) => sheets.add(me(ctx.caller), params.projectId, body)),
    implement(c.change, ({ params, body, ctx }) =>
      sheets.change(me(ctx.caller), params.projectId, params.entryId, body),
    ),
    implement(c.remove, ({ params, ctx }) => sheets.remove(me(ctx.caller), params.projectId, params.entryId)),
    implement(c.submit, ({ params, ctx }) => sheets.submit(me(ctx.caller), params.projectId, params.weekId)),
    implement(c.approve, ({ params, ctx }) =>
      sheets.approve(me(ctx.caller), params.projectId, params.weekId),
    ),
    implement(c.dispute, ({ params, body, ctx }) =>
      sheets.dispute(me(ctx.caller), params.projectId, params.weekId, body.reason),
    ),
  ]
}
