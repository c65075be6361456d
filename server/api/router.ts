import type { Endpoint, Method } from './contract.ts'

// Matches request paths against contract paths. Literal segments compare without regard to case
// because the spec's own calls mix `Settings/faq` and `settings/searchskills`.
export interface Route<H> {
  endpoint: Endpoint
  handler: H
  segments: string[]
}

export function createRouter<H>(routes: Array<{ endpoint: Endpoint; handler: H }>) {
  const table = routes.map((r) => ({ ...r, segments: r.endpoint.path.split('/') }))
  return {
    routes: table,
    match(method: string, path: string) {
      const parts = path.split('/')
      let methodMismatch = false
      for (const route of table) {
        const params = matchSegments(route.segments, parts)
        if (!params) continue
        if (route.endpoint.method !== (method as Method)) {
          methodMismatch = true
          continue
        }
        return { route, params }
      }
      return methodMismatch ? 'method-not-allowed' : null
    },
  }
}

function matchSegments(pattern: string[], parts: string[]) {
  if (pattern.length !== parts.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]
    if (p.startsWith('{') && p.endsWith('}')) {
      if (!parts[i]) return null
      try {
        params[p.slice(1, -1)] = decodeURIComponent(parts[i])
      } catch {
        return null
      }
    } else if (p.toLowerCase() !== parts[i].toLowerCase()) return null
  }
  return params
}
