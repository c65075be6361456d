import type { Route } from './+types/verification-document'
import { appContext } from '~/lib/context'
import { requirePermission, sessionContext } from '~/lib/session.server'

// /admin/verifications/{id}/document: a pending request's document for a SuperAdmin, through the
// API with the session's token (a link cannot carry it); the API decrypts and audits the reading.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  const id = Number(params.id)
  if (!Number.isInteger(id) || id <= 0 || id > 2 ** 31) return new Response('Not Found', { status: 404 })
  const deps = context.get(appContext)
  const token = context.get(sessionContext).token
  const base = deps.apiUrl ? new URL('/api/v1/', deps.apiUrl).href : 'http://in-process/api/v1/'
  const call = new Request(`${base}Admin/verifications/${id}/document`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
  return deps.apiUrl ? fetch(call) : deps.api(call, { requestId: deps.requestId, ip: deps.clientIp })
}
