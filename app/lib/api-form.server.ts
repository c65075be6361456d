import type { RouterContextProvider } from 'react-router'
import { appContext } from './context'
import { getLocale } from '../middleware/i18next'
import { refusal } from './api.server'
import { sessionContext } from './session.server'

/**
 * Posts a multipart form (files beside fields) to an API path the way the typed client posts JSON:
 * in process unless API_URL is set, with the session's token and the page's language. Answers the
 * parsed JSON, or throws the ApiCallError with the problem body.
 */
export async function postMultipart(
  context: Readonly<RouterContextProvider>,
  path: string,
  form: FormData,
): Promise<unknown> {
  const deps = context.get(appContext)
  const token = context.get(sessionContext).token
  const base = deps.apiUrl ? new URL('/api/v1/', deps.apiUrl).href : 'http://in-process/api/v1/'
  const encoded = new Response(form)
  const body = Buffer.from(await encoded.arrayBuffer())
  const headers = new Headers({
    accept: 'application/json',
    'accept-language': getLocale(context),
    'content-type': encoded.headers.get('content-type')!,
  })
  if (token) headers.set('authorization', `Bearer ${token}`)
  const request = new Request(base + path, { method: 'POST', headers, body })
  const response = await (deps.apiUrl
    ? fetch(request)
    : deps.api(request, { requestId: deps.requestId, ip: deps.clientIp }))
  if (!response.ok) throw await refusal(response)
  return response.json()
}
