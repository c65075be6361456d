import type { Route } from './+types/search-suggest'
import { apiFor } from '~/lib/api.server'
import { catalogueContract } from '#server/modules/catalogue/contract.ts'
import { projectsContract } from '#server/modules/projects/contract.ts'

// Suggestions for the search box (a resource route the box fetches as you type): the home
// search's matches (open projects or freelancers, docs/product.md §7 HomeSearch/{type}/{term}), then skills
// whose name contains the term.
export async function loader({ context, url }: Route.LoaderArgs) {
  const term = (url.searchParams.get('term') ?? '').trim().slice(0, 60)
  const type = url.searchParams.get('type') === 'projects' ? 'projects' : 'workneerer'
  if (term.length < 2) return Response.json({ suggestions: [] })
  const api = apiFor(context, { token: null })
  const [matches, skills] = await Promise.all([
    api.call(projectsContract.homeSearch, { params: { type, term } }).catch(() => ({ data: [] })),
    api.call(catalogueContract.searchSkills, { query: { q: term } }).catch(() => ({ data: [] })),
  ])
  const names = [...matches.data.slice(0, 5).map((m) => m.title), ...skills.data.map((s) => s.name)]
  return Response.json(
    { suggestions: [...new Set(names)].slice(0, 8) },
    { headers: { 'cache-control': 'private, max-age=60' } },
  )
}
