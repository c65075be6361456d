import { redirect } from 'react-router'
import type { Route } from './+types/file'
import { downloadFile } from './api.server'

// /projects/files/{fileId}: a project's file for the signed-in participant, through the API's
// download with the session's token (a browser link cannot carry the bearer token itself).
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const id = Number(params.fileId)
  if (!Number.isInteger(id) || id <= 0) return new Response('Not Found', { status: 404 })
  const response = await downloadFile(context, id, request)
  // A local path, not an absolute URL: the request's Host is not the site's address.
  if (response.status === 401)
    return redirect(`/auth/login?redirectTo=${encodeURIComponent(new URL(request.url).pathname)}`)
  return response
}
