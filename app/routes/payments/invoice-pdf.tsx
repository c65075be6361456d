import type { Route } from './+types/invoice-pdf'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { invoicePdf } from '~/lib/invoice-pdf.server'
import { invoicesContract as c } from '#server/modules/payments/invoices-contract.ts'

// /invoices/{id}/pdf (login required): one invoice as a PDF in the reader's language, for its
// issuer and recipient only (anyone else: the API's 404). Resource route: no page of its own.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const id = Number(params.invoiceId)
  if (!Number.isSafeInteger(id) || id < 1) throw new Response('Not Found', { status: 404 })
  try {
    const invoice = await apiFor(context).call(c.invoice, { params: { invoiceId: id } })
    const i18n = getInstance(context)
    const pdf = await invoicePdf(invoice, i18n.t, i18n.language)
    return new Response(new Uint8Array(pdf), {
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="${invoice.number}.pdf"`,
        'cache-control': 'private, no-store',
      },
    })
  } catch (error) {
    throwApiError(error)
  }
}
