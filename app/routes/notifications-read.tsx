import { redirect } from 'react-router'
import type { Route } from './+types/notifications-read'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { requireUser } from '~/lib/session.server'
import { notificationsContract as c } from '#server/modules/notifications/contract.ts'
import { notificationTarget } from '#server/modules/notifications/targets.ts'
import { ErrorPage } from '~/components/error-page'

// The bell's items are forms posting here (so they work without JavaScript): the notification is
// marked read and the reader goes where it leads (docs/product.md §4). Someone else's id is not found.
export async function action({ context, params, url }: Route.ActionArgs) {
  const user = requireUser(context, url)
  try {
    const read = await apiFor(context).call(c.markRead, { params: { id: params.id } })
    return redirect(notificationTarget(read, user.roles))
  } catch (error) {
    if (error instanceof ApiCallError && error.status < 500) throw new Response('Not Found', { status: 404 })
    throw error
  }
}

export function loader() {
  return redirect('/')
}

// A form target with a status page of its own, not a bare resource route: what it refuses (another
// site's form, a body that is not a form) is answered with the page of docs/product.md §8, not JSON.
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
