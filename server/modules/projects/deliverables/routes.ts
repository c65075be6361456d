import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { deliverablesContract as c } from './contract.ts'
import type { DeliverablesService } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function deliverablesRoutes(deliverables: DeliverablesService) {
  return [
    implement(c.register, ({ params, query, ctx }) =>
      deliverables.register(me(ctx.caller), params.projectId, query),
    ),
    implement(c.add, ({ params, body, ctx }) => deliverables.add(me(ctx.caller), params.projectId, body)),
    implement(c.deliverable, ({ params, ctx }) =>
      deliverables.deliverable(me(ctx.caller), params.deliverableId),
    ),
    // The body is undefined when the request is multipart (the contract's `multipart`).
    implement(c.issue, ({ params, body, ctx }) =>
      body
        ? deliverables.issue(me(ctx.caller), params.deliverableId, body)
        : deliverables.issueForm(me(ctx.caller), params.deliverableId, ctx.request),
    ),
    implement(c.issueTransmittal, ({ params, body, ctx }) =>
      deliverables.issueTransmittal(me(ctx.caller), params.projectId, body),
    ),
    implement(c.answer, ({ params, body, ctx }) => deliverables.answer(me(ctx.caller), params.issueId, body)),
    implement(c.transmittal, ({ params, ctx }) =>
      deliverables.transmittal(me(ctx.caller), params.transmittalId),
    ),
  ]
}
