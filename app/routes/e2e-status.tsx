import { data, redirect } from 'react-router'
import type { Route } from './+types/e2e-status'
import { ErrorPage } from '~/components/error-page'

// End-to-end tests only (the e2e servers run with E2E=1): answers the given status the way a
// failed API call does, so the tests can see every notice of SPEC §8 rendered by a route's
// ErrorBoundary. Anywhere else it is the not-found page.
export function loader({ params }: Route.LoaderArgs) {
  const status = Number(params.status)
  if (process.env.E2E !== '1' || !Number.isInteger(status) || status < 400 || status > 599)
    throw redirect('/auth/not-found')
  throw data(
    {
      status,
      title: 'Invalid Info',
      detail: 'detail',
      errors: { budget: ['Budget must be positive'], title: ['Title is required'] },
    },
    { status },
  )
}

export function meta() {
  return [{ title: 'Workneer' }]
}

export default function E2eStatus() {
  return null
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
