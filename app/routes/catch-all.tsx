import { redirect } from 'react-router'

// docs/product.md §2: any unknown path redirects to /auth/not-found.
export function loader() {
  throw redirect('/auth/not-found')
}

export default function CatchAll() {
  return null
}
