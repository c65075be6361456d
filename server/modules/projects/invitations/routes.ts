import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { invitationsContract as c } from './contract.ts'
import type { Invitations } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function invitationsRoutes(invitations: Invitations) {
  return [
    implement(c.mine, ({ query, ctx }) => invitations.mine(me(ctx.caller), query)),
    implement(c.accept, ({ params, ctx }) => invitations.accept(me(ctx.caller), params.invitationId)),
    implement(c.decline, ({ params, body, ctx }) =>
      invitations.decline(me(ctx.caller), params.invitationId, body.reason),
    ),
    implement(c.forProject, ({ params, ctx }) => invitations.forProject(me(ctx.caller), params.projectId)),
    implement(c.invite, ({ params, body, ctx }) =>
      invitations.invite(me(ctx.caller), params.projectId, body),
    ),
  ]
}
