import type { RouterContextProvider } from 'react-router'
import { appContext } from '~/lib/context'
import { ApiCallError, type ProblemBody } from '~/lib/api.server'
import { postMultipart } from '~/lib/api-form.server'
import { sessionContext } from '~/lib/session.server'

/**
 * Forwards one uploaded file to `projects/{id}/uploadProjectFiles` as multipart, the way the typed
 * client forwards JSON (in process unless API_URL is set). Images go as kind=image (docs/product.md §5 rules).
 */
export async function uploadProjectFile(
  context: Readonly<RouterContextProvider>,
  projectId: number,
  file: File,
  target: { proposalId?: number; installmentId?: number } = {},
) {
  const query = new URLSearchParams()
  if (target.proposalId) query.set('proposalId', String(target.proposalId))
  if (target.installmentId) query.set('installmentId', String(target.installmentId))
  if (/\.(png|jpe?g|gif|tiff|bpg)$/i.test(file.name)) query.set('kind', 'image')
  const form = new FormData()
  form.append('file', file, file.name)
  try {
    return (await postMultipart(context, `projects/${projectId}/uploadProjectFiles?${query}`, form)) as {
      id: number
      name: string
    }
  } catch (error) {
    if (error instanceof ApiCallError && typeof error.problem === 'object')
      throw new ApiCallError(error.status, { ...error.problem, detail: uploadNoticeKey(error.problem) })
    throw error
  }
}

/** A file field's value when a file was chosen (an empty file input sends a nameless empty part). */
export function chosenFile(value: FormDataEntryValue | null) {
  return value instanceof File && value.name && value.size > 0 ? value : null
}

/** The API's download of a stored file, made with the web session's token (project files are not public). */
export async function downloadFile(
  context: Readonly<RouterContextProvider>,
  fileId: number,
  request: Request,
) {
  const deps = context.get(appContext)
  const token = context.get(sessionContext).token
  const base = deps.apiUrl ? new URL('/api/v1/', deps.apiUrl).href : 'http://in-process/api/v1/'
  const headers = new Headers()
  if (token) headers.set('authorization', `Bearer ${token}`)
  const etag = request.headers.get('if-none-match')
  if (etag) headers.set('if-none-match', etag)
  const call = new Request(`${base}files/${fileId}/download`, { headers })
  return deps.apiUrl ? fetch(call) : deps.api(call, { requestId: deps.requestId, ip: deps.clientIp })
}

/** An upload problem's code, as the key of the projects namespace the pages show. */
function uploadNoticeKey(problem: ProblemBody) {
  if (problem.code === 'file_too_large') return 'errors.fileSize'
  if (problem.code === 'invalid_image' || problem.code === 'invalid_document') return 'errors.fileType'
  return problem.detail
}
