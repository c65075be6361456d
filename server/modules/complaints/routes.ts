import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { complaintsContract as c } from './contract.ts'
import type { ComplaintsService } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function complaintsRoutes(complaints: ComplaintsService) {
  return [
    implement(c.subjects, ({ ctx }) => complaints.subjects(me(ctx.caller))),
    implement(c.mine, ({ query, ctx }) => complaints.mine(me(ctx.caller), query.page)),
    // The body is undefined when the request is multipart (the contract's `multipart`).
    implement(c.create, ({ body, ctx }) =>
      body ? complaints.create(me(ctx.caller), body) : complaints.createForm(me(ctx.caller), ctx.request),
    ),
    implement(c.get, ({ params, ctx }) => complaints.get(me(ctx.caller), params.complaintId)),
    implement(c.reply, ({ params, body, ctx }) =>
      body
        ? complaints.reply(me(ctx.caller), params.complaintId, body.body)
        : complaints.replyForm(me(ctx.caller), params.complaintId, ctx.request),
    ),
    implement(c.queue, ({ query, ctx }) => complaints.queue(me(ctx.caller), query)),
    implement(c.adminGet, ({ params, ctx }) => complaints.adminGet(me(ctx.caller), params.complaintId)),
    implement(c.adminReply, ({ params, body, ctx }) =>
      body
        ? complaints.adminReply(me(ctx.caller), params.complaintId, body.body)
        : complaints.adminReplyForm(me(ctx.caller), params.complaintId, ctx.request),
    ),
    implement(c.assign, ({ params, ctx }) => complaints.assign(me(ctx.caller), params.complaintId)),
    implement(c.changeState, ({ params, body, ctx }) =>
      complaints.changeState(me(ctx.caller), params.complaintId, body.state, body.reason),
    ),
    implement(c.decide, ({ params, body, ctx }) =>
      complaints.decide(me(ctx.caller), params.complaintId, body),
    ),
    implement(c.hold, ({ params, body, ctx }) =>
      complaints.hold(me(ctx.caller), params.complaintId, body.installmentId),
    ),
    implement(c.room, ({ params, ctx }) => complaints.room(me(ctx.caller), params.complaintId)),
    implement(c.audit, ({ query, ctx }) => complaints.audit(me(ctx.caller), query)),
  ]
}
