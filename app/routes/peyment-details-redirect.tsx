import { redirect } from 'react-router'
import type { Route } from './+types/peyment-details-redirect'

// The correct spelling leads to the page at the path the specification gives (/peyment-details).
export function loader({ url }: Route.LoaderArgs) {
  throw redirect(`/peyment-details${url.search}`, 301)
}

export default function PaymentDetailsRedirect() {
  return null
}
