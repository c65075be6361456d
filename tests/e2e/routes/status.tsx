import { data, redirect, type LoaderFunctionArgs } from 'react-router'
import { ErrorPage } from '~/components/error-page'

// End-to-end tests only: in the route table of a build made with E2E=1 (app/routes.ts), and
// answering only while the server runs with E2E=1. It answers the given status the way a failed API
// call does, so the tests can see every notice of the error catalogue rendered by a route's
// ErrorBoundary. Anything else is the not-found page.
export function loader({ params }: LoaderFunctionArgs) {
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

export function ErrorBoundary({ error }: { error: unknown }) {
  return <ErrorPage error={error} />
}
