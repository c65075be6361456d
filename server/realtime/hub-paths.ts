import type { HubRuntime } from './hub-runtime.ts'

// Which hub a request's path names: under basePath (`/hubs/chat`, `/hubs/chat/negotiate`) or at an
// alias (`/chat`, matched without regard to case, as ASP.NET routes are).

export interface Route {
  /** Null for a path under a hub's prefix that names no hub or endpoint (answered 404). */
  hub: HubRuntime | null
  negotiate: boolean
  query: URLSearchParams
}

export function createHubPaths(options: {
  basePath?: string
  aliases?: Record<string, string>
  hubs: ReadonlyMap<string, HubRuntime>
}) {
  const basePath = '/' + (options.basePath ?? '/hubs').replace(/^\/+|\/+$/g, '')
  // Further paths of a hub: `/chat` → chat.
  const aliases = new Map(
    Object.entries(options.aliases ?? {}).map(([path, hub]) => [
      '/' + path.replace(/^\/+|\/+$/g, '').toLowerCase(),
      hub.toLowerCase(),
    ]),
  )

  /** The hub a path names, and what follows it. */
  function hubPath(path: string): string[] | null {
    if (path === basePath || path.startsWith(basePath + '/'))
      return path.slice(basePath.length + 1).split('/')
    const lower = path.toLowerCase()
    for (const [alias, hub] of aliases) {
      if (lower === alias) return [hub]
      if (lower.startsWith(alias + '/')) return [hub, ...path.slice(alias.length + 1).split('/')]
    }
    return null
  }

  /** The route of a request target (path and query); null when it is not a hub's. */
  return function route(rawUrl: string | undefined): Route | null {
    const url = URL.parse(rawUrl ?? '/', 'http://localhost')
    if (!url) return null
    const parts = hubPath(url.pathname.replace(/\/+$/, ''))
    if (!parts) return null
    const hub = options.hubs.get(parts[0].toLowerCase()) ?? null
    const negotiate = parts.length === 2 && parts[1] === 'negotiate'
    if (parts.length > 2 || (parts.length === 2 && !negotiate))
      return { hub: null, negotiate: false, query: url.searchParams }
    return { hub, negotiate, query: url.searchParams }
  }
}
