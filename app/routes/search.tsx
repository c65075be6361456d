import { redirect } from 'react-router'
import type { Route } from './+types/search'
import { searchHref } from '~/components/shell/search-box'

// The search box without JavaScript: GET /search?type=workneerer|projects&term=… goes to the
// freelancer search or the project list, an empty term kept as 'all' (docs/product.md §2).
export function loader({ url }: Route.LoaderArgs) {
  const type = url.searchParams.get('type') === 'projects' ? 'projects' : 'workneerer'
  throw redirect(searchHref(type, url.searchParams.get('term') ?? ''))
}

export default function Search() {
  return null
}
