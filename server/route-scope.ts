import { createRequestHandler, matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

// React Router's server does work in proportion to every route of the app on each request, not to
// the few a request reaches: it ranks and tries all ~90 branches (twice for a page), and builds a
// server route and a data route for every route to render the page. Measured on the trivial page,
// that was ~400 KB of the ~700 KB a request allocated (decision 290). A request only ever reaches
// one branch (the root, the layout, its page), so it is handed a handler of a build with just those
// routes. Which branch is React Router's own answer (`matchRoutes` over the whole tree, ranked as it
// ranks them), remembered per address; a handler per branch is made once.

type Mode = Parameters<typeof createRequestHandler>[1]
type Handler = ReturnType<typeof createRequestHandler>
type ManifestRoute = NonNullable<ServerBuild['routes'][string]>

/** Addresses remembered with their branch; past this, the oldest is forgotten (ids in paths are many). */
const REMEMBERED_ADDRESSES = 2000

/** The route tree React Router's static handler builds from the build (server-runtime/routes.ts), for matching only. */
export function routeTree(routes: ServerBuild['routes']): RouteObject[] {
  const byParent = Map.groupBy(
    Object.values(routes).filter((r): r is ManifestRoute => !!r),
    (r) => r.parentId ?? '',
  )
  const under = (parentId: string): RouteObject[] =>
    (byParent.get(parentId) ?? []).map((r) =>
      r.index
        ? { id: r.id, path: r.path, index: true }
        : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: under(r.id) },
    )
  return under('')
}

/** The address React Router matches for a request: a data request's `.data` (and the root's `_.data`) taken off (server-runtime/urls.ts). */
export function matchedPathname(url: URL) {
  const { pathname } = url
  return pathname.endsWith('/_.data') ? pathname.slice(0, -'_.data'.length) : pathname.replace(/\.data$/, '')
}

/** The build with only the routes of the branch that ends at `leafId`: its routes and their client manifest entries. */
export function branchBuild(build: ServerBuild, leafId: string): ServerBuild {
  const ids: string[] = []
  for (let id: string | undefined = leafId; id; id = build.routes[id]?.parentId) ids.push(id)
  const pick = <T>(all: Record<string, T>) => Object.fromEntries(ids.map((id) => [id, all[id]]))
  return {
    ...build,
    routes: pick(build.routes),
    assets: { ...build.assets, routes: pick(build.assets.routes) },
  }
}

export function createRouteScopedHandler(build: ServerBuild, mode?: Mode): Handler {
  const tree = routeTree(build.routes)
  // An address no route matches is the whole build's to answer (its 404).
  const whole = createRequestHandler(build, mode)
  const leaves = new Map<string, string | null>()
  const handlers = new Map<string, Handler>()
  const leafOf = (pathname: string) => {
    let leaf = leaves.get(pathname)
    if (leaf === undefined) {
      leaf = matchRoutes(tree, pathname, build.basename)?.at(-1)?.route.id ?? null
      if (leaves.size >= REMEMBERED_ADDRESSES) leaves.delete(leaves.keys().next().value!)
      leaves.set(pathname, leaf)
    }
    return leaf
  }
  return (request, context) => {
    const leaf = leafOf(matchedPathname(new URL(request.url)))
    if (!leaf) return whole(request, context)
    let handler = handlers.get(leaf)
    if (!handler) handlers.set(leaf, (handler = createRequestHandler(branchBuild(build, leaf), mode)))
    return handler(request, context)
  }
}
