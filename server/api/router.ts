import type { Endpoint, Method } from './contract.ts'

// Matches request paths against contract paths. Literal segments compare without regard to case
// because the spec's own calls mix `Settings/faq` and `settings/searchskills`.
export interface Route<H> {
  endpoint: Endpoint
  handler: H
}

/** A contract path's segments, each a literal (lower case) or a parameter's name. */
type Segment = { literal: string } | { param: string }

// The routes are grouped by their number of segments and each pattern is read once, at start: the
// web UI calls the API in process several times for every page, and a call used to try every route,
// lower-casing both sides and allocating a parameter object for each try.
export function createRouter<H>(routes: Array<Route<H>>) {
  const byLength = new Map<number, Array<{ route: Route<H>; pattern: Segment[] }>>()
  for (const route of routes) {
    const pattern = route.endpoint.path
      .split('/')
      .map((s): Segment =>
        s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s.toLowerCase() },
      )
    let group = byLength.get(pattern.length)
    if (!group) byLength.set(pattern.length, (group = []))
    group.push({ route, pattern })
  }
  return {
    match(method: string, path: string) {
      const parts = path.split('/')
      const lower = parts.map((p) => p.toLowerCase())
      let methodMismatch = false
      for (const { route, pattern } of byLength.get(parts.length) ?? []) {
        if (!fits(pattern, lower)) continue
        const params = paramsOf(pattern, parts)
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

/** The literals are the same and no parameter is empty. */
function fits(pattern: Segment[], lower: string[]) {
  for (let i = 0; i < pattern.length; i++) {
    const segment = pattern[i]
    if ('literal' in segment ? segment.literal !== lower[i] : !lower[i]) return false
  }
  return true
}

/** The parameters, decoded; null when one is not valid percent-encoding (no match). */
function paramsOf(pattern: Segment[], parts: string[]) {
  const params: Record<string, string> = {}
  for (let i = 0; i < pattern.length; i++) {
    const segment = pattern[i]
    if (!('param' in segment)) continue
    try {
      params[segment.param] = decodeURIComponent(parts[i])
    } catch {
      return null
    }
  }
  return params
}
