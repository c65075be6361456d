import type { TFunction } from '~/lib/translator'
import { data, redirect } from 'react-router'
import { ApiCallError } from './api.server'
import { noticeFor, routeForStatus } from './errors'
import { flashCookie } from './flash.server'

// Loaders and actions hand API failures to these, so every page applies docs/product.md §8 the same way.
// The session cookie is cleared by name on 401/402; its owner (identity) names it `session`.
const SESSION_COOKIES = ['session', '__session']
const expire = (name: string) => `${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`

/** For loaders: redirects for 401/402/403/404, otherwise a thrown response the ErrorBoundary renders as a notice. */
export function throwApiError(error: unknown): never {
  if (!(error instanceof ApiCallError)) throw error
  const action = routeForStatus(error.status)
  if (action.kind === 'logout') {
    const headers = new Headers()
    for (const name of SESSION_COOKIES) headers.append('set-cookie', expire(name))
    throw redirect(action.to, { headers })
  }
  if (action.kind === 'redirect') throw redirect(action.to)
  throw data(error.problem, { status: error.status })
}

/** For actions: redirects like loaders, or returns the notice (and flashes it, so it shows without JS after any redirect). */
export function actionApiError(error: unknown, t: TFunction) {
  if (!(error instanceof ApiCallError)) throw error
  const action = routeForStatus(error.status)
  if (action.kind !== 'notice') throwApiError(error)
  const notice = noticeFor(error.status, error.problem, t, error.retryAfter)
  return data(
    { notice, fields: error.fieldErrors },
    { status: error.status >= 400 && error.status < 600 ? error.status : 500 },
  )
}

/** docs/product.md §7: a successful PUT shows "Success Operation". Actions that PUT redirect through this. */
export function successOperation(to: string, t: TFunction) {
  return redirect(to, {
    headers: { 'set-cookie': flashCookie({ kind: 'success', message: t('notices.successOperation') }, to) },
  })
}
