import type { Route } from './+types/search-suggest'
import { apiFor } from '~/lib/api.server'
import { catalogueContract } from '../../server/modules/catalogue/contract'

// Suggestions for the search box (a resource route the box fetches as you type): skills whose
// name contains the term, and the categories that match it.
export async function loader({ context, url }: Route.LoaderArgs) {
  const term = (url.searchParams.get('term') ?? '').trim().slice(0, 60)
  if (term.length < 2) return Response.json({ suggestions: [] })
  const api = apiFor(context, { token: null })
  const [skills, categories] = await Promise.all([api.call(catalogueContract.searchSkills, { query: { q: term } }), api.call(catalogueContract.categories)])
  const needle = term.toLocaleLowerCase()
  const names = [...categories.data.filter((c) => c.name.toLocaleLowerCase().includes(needle)).map((c) => c.name), ...skills.data.map((s) => s.name)]
  return Response.json({ suggestions: [...new Set(names)].slice(0, 8) }, { headers: { 'cache-control': 'private, max-age=60' } })
}
