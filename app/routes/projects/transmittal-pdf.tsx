import type { Route } from './+types/transmittal-pdf'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { transmittalPdf } from '~/lib/transmittal-pdf.server'
import { deliverablesContract as d } from '#server/modules/projects/deliverables/contract.ts'

// /projects/transmittal/{id}/pdf (login required): a transmittal as a PDF in the reader's
// language, for the contract's two parties only (anyone else: the API's 404). Resource route.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const id = Number(params.transmittalId)
  if (!Number.isSafeInteger(id) || id < 1) throw new Response('Not Found', { status: 404 })
  try {
    const transmittal = await apiFor(context).call(d.transmittal, { params: { transmittalId: id } })
    const i18n = getInstance(context)
    const pdf = await transmittalPdf(transmittal, i18n.t, i18n.language)
    return new Response(new Uint8Array(pdf), {
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="${transmittal.number}.pdf"`,
        'cache-control': 'private, no-store',
      },
    })
  } catch (error) {
    throwApiError(error)
  }
}
