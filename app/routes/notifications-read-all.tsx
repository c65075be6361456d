import { redirect } from 'react-router'
import type { Route } from './+types/notifications-read-all'
import { apiFor } from '~/lib/api.server'
import { requireUser } from '~/lib/session.server'
import { safeRedirect } from '#server/modules/identity/permissions.ts'
import { notificationsContract as c } from '#server/modules/notifications/contract.ts'
import { ErrorPage } from '~/components/error-page'

// "Mark all as read", in the bell and on /notifications: a plain form POST (it works without
// JavaScript) that marks every unread notification of the reader read and goes back where they were.
export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, url)
  const form = await request.formData()
  await apiFor(context).call(c.markAllRead)
  return redirect(safeRedirect(form.get('redirectTo'), '/notifications'))
}

export function loader() {
  return redirect('/notifications')
}

// A form target with a status page of its own: what it refuses is answered with the error page, not JSON.
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
