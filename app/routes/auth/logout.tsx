import { redirect } from 'react-router'
import type { Route } from './+types/logout'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { clearSessionCookie, getSession } from '~/lib/session.server'
import { identityContract } from '#server/modules/identity/contract.ts'
import { ErrorPage } from '~/components/error-page'

// Logout is a POST (a link could be triggered by any page); it ends the session on the server,
// clears the cookie and leaves for the home page (docs/product.md §4).
export async function action({ request, context }: Route.ActionArgs) {
  const { token } = getSession(context)
  if (token) {
    try {
      await apiFor(context, { token }).call(identityContract.logout)
    } catch (error) {
      if (!(error instanceof ApiCallError) && !(error instanceof Response)) throw error
    }
  }
  return redirect('/', { headers: { 'set-cookie': clearSessionCookie(context, request) } })
}

export function loader() {
  return redirect('/')
}

// A form target with a status page of its own, not a bare resource route: what it refuses (another
// site's form, a body that is not a form) is answered with the page of docs/product.md §8, not JSON.
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
