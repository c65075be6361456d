import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { verificationContract as c } from './contract.ts'
import type { VerificationService } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function verificationRoutes(verification: VerificationService) {
  return [
    implement(c.status, ({ ctx }) => verification.status(me(ctx.caller))),
    // The document comes as multipart only: a JSON body has no file.
    implement(c.request, ({ body, ctx }) => verification.ask(me(ctx.caller), body ? null : ctx.request)),
    implement(c.queue, ({ query, ctx }) => verification.queue(me(ctx.caller), query.page)),
    implement(c.decide, ({ params, body, ctx }) => verification.decide(me(ctx.caller), params.id, body)),
    implement(c.document, ({ params, ctx }) => verification.document(me(ctx.caller), params.id)),
  ]
}
