import { redirect } from 'react-router'
import type { Route } from './+types/data-export-download'
import { appContext } from '~/lib/context'
import { requireUser, sessionContext } from '~/lib/session.server'

// /profile/account-settings/data-export/download[?token=] (login required): the caller's archive of
// their data as the API streams it (decision 331). The mailed link's token names the archive; it
// opens only for its owner's session, so anyone else, and anyone after it expired, is sent back to
// their own settings, told the link no longer opens anything.
export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const deps = context.get(appContext)
  const base = deps.apiUrl ? new URL('/api/v1/', deps.apiUrl).href : 'http://in-process/api/v1/'
  const token = url.searchParams.get('token')
  const query = token ? `?${new URLSearchParams({ token })}` : ''
  const call = new Request(`${base}identity/data-export/download${query}`, {
    headers: { authorization: `Bearer ${context.get(sessionContext).token}` },
  })
  const answer = await (deps.apiUrl
    ? fetch(call)
    : deps.api(call, { requestId: deps.requestId, ip: deps.clientIp }))
  if (answer.ok) return answer
  // Expired, removed, not this person's, or a mangled token: back to the section, which says so.
  if (answer.status === 404 || answer.status === 400)
    throw redirect('/profile/account-settings?export=gone#data-export')
  // A session that ended meanwhile: sign in again, then back to this link.
  if (answer.status === 401)
    throw redirect(`/auth/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`)
  throw new Response(await answer.text(), { status: answer.status, headers: answer.headers })
}
