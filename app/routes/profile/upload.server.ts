import type { RouterContextProvider } from 'react-router'
import { ApiCallError, type ProblemBody } from '~/lib/api.server'
import type { ErrorCode } from '#server/api/errors.ts'
import { throwApiError } from '~/lib/api-errors.server'
import { appContext } from '~/lib/context'
import { sessionContext } from '~/lib/session.server'
import { getLocale } from '~/middleware/i18next'

// Uploads go from the browser's multipart form to the API without being buffered here: the
// request body streams through, so the API's size limit cuts an oversized upload off early.
// The typed API client speaks JSON only, hence this small sibling for multipart.
export type UploadOutcome =
  { ok: true } | { ok: false; code?: ErrorCode; problem: { title: string; message: string } }

export async function forwardUpload(
  context: Readonly<RouterContextProvider>,
  apiPath: string,
  request: Request,
): Promise<UploadOutcome> {
  const deps = context.get(appContext)
  const token = context.get(sessionContext).token
  const base = deps.apiUrl ? new URL('/api/v1/', deps.apiUrl).href : 'http://in-process/api/v1/'
  const headers = new Headers({
    accept: 'application/json',
    'accept-language': getLocale(context),
    'x-request-id': deps.requestId,
  })
  if (token) headers.set('authorization', `Bearer ${token}`)
  const contentType = request.headers.get('content-type')
  if (contentType) headers.set('content-type', contentType)
  const length = request.headers.get('content-length')
  if (length) headers.set('content-length', length)
  const outgoing = new Request(base + apiPath, {
    method: 'POST',
    headers,
    body: request.body,
    duplex: 'half',
  } as RequestInit)
  const response = deps.apiUrl
    ? await fetch(outgoing)
    : await deps.api(outgoing, { requestId: deps.requestId, ip: deps.clientIp })
  if (response.ok) {
    await response.body?.cancel()
    return { ok: true }
  }
  const text = await response.text()
  let body: ProblemBody | string = text
  try {
    body = JSON.parse(text) as ProblemBody
  } catch {
    // a plain-text error is shown as it is
  }
  if (response.status !== 400) throwApiError(new ApiCallError(response.status, body))
  // Drain what the browser is still sending, so it reads our answer instead of a reset connection.
  await request.body?.cancel().catch(() => {})
  if (typeof body !== 'object') return { ok: false, problem: { title: 'Invalid Info', message: body } }
  const message = body.errors?.file?.[0] ?? body.detail
  return { ok: false, code: body.code, problem: { title: body.title, message } }
}
