import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { invoicesContract as c } from './invoices-contract.ts'
import type { Invoices } from './invoices.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function invoicesRoutes(invoices: Invoices) {
  return [
    implement(c.invoices, ({ query, ctx }) => invoices.list(me(ctx.caller), query.page)),
    implement(c.invoice, ({ params, ctx }) => invoices.get(me(ctx.caller), params.invoiceId)),
    implement(c.statement, ({ query, ctx }) => invoices.statement(me(ctx.caller), query)),
  ]
}
