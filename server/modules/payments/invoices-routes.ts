import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { invoicesContract as c } from './invoices-contract.ts'
import type { Invoices } from './invoices.ts'
import { invoiceDetailsContract as d } from './invoice-details-contract.ts'
import type { InvoiceDetails } from './invoice-details.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function invoicesRoutes(invoices: Invoices, details: InvoiceDetails) {
  return [
    implement(c.invoices, ({ query, ctx }) => invoices.list(me(ctx.caller), query.page)),
    implement(c.invoice, ({ params, ctx }) => invoices.get(me(ctx.caller), params.invoiceId)),
    implement(c.statement, ({ query, ctx }) => invoices.statement(me(ctx.caller), query)),
    implement(d.invoiceDetails, ({ ctx }) => details.get(me(ctx.caller))),
    implement(d.saveInvoiceDetails, ({ body, ctx }) => details.save(me(ctx.caller), body)),
  ]
}
