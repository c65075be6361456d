import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { projectReviewContract as c } from './contract.ts'
import type { ProjectReview } from './service.ts'

// The API guard already answered anyone but a SuperAdmin (access 'admin', decision 220).
const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function projectReviewRoutes(review: ProjectReview) {
  return [
    implement(c.rule, () => review.rule()),
    implement(c.setRule, ({ body, ctx }) => review.setRule(me(ctx.caller), body)),
    implement(c.queue, ({ query, ctx }) => review.queue(me(ctx.caller), query, ctx.locale)),
    implement(c.approve, ({ params, ctx }) => review.approve(me(ctx.caller), params.projectId)),
    implement(c.return, ({ params, body, ctx }) =>
      review.return(me(ctx.caller), params.projectId, body.reason),
    ),
  ]
}
