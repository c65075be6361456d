// Where a request goes, decided from its path alone, before anything else is read: the guard
// admits it by its destination, and the body's limit depends on it (body-limit.ts).

export type Destination = 'health' | 'hub' | 'hub-negotiate' | 'api' | 'pages'

/** The paths the server serves besides its pages: the hubs' (each hub's own test) and the API's prefix. */
export interface ServedPaths {
  isHubPath: (path: string) => boolean
  apiPrefix: string
}

export function destinationOf({ isHubPath, apiPrefix }: ServedPaths, path: string): Destination {
  if (path === '/healthz' || path === '/readyz') return 'health'
  if (isHubPath(path)) return /\/negotiate\/?$/i.test(path) ? 'hub-negotiate' : 'hub'
  if (path.startsWith(apiPrefix) || path === apiPrefix.slice(0, -1)) return 'api'
  return 'pages'
}
