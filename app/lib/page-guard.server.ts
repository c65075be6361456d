import { createContext, data, type MiddlewareFunction } from 'react-router'
import { refusalStatus, type Refusal } from './errors'

// Every page request that is not GET or HEAD passes here before React Router sees it (server/app.ts),
// whatever route it is for, so a new action route cannot forget either check (issue 14, items 5, 6):
// - one cross-site check: a form posted from another site changes nothing (decision 085);
// - a page action reads its form through request.formData(), which answers 415 for a body that is
//   not a form and 400 for a form that cannot be read, instead of the 500 an exception would give.
// What is refused is answered by the root middleware with the status page (docs/product.md §8).
/** The refusal the root middleware answers for this request, set by server/app.ts. */
export const refusalContext = createContext<Refusal | null>(null)

const SAFE_METHODS = new Set(['GET', 'HEAD'])
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data'])

function sameOrigin(a: string, b: string) {
  try {
    return new URL(a).origin === new URL(b).origin
  } catch {
    return false
  }
}

/**
 * Was this request sent from another site? Origin first: it must be one of the site's origins (the
 * address the request came in on, PUBLIC_URL's). Without Origin, Sec-Fetch-Site: a browser's
 * same-origin or user-initiated (`none`) request passes, `same-site` and `cross-site` do not. A
 * request with neither header is not from a browser that a page could have driven, and passes.
 */
export function isCrossSite(request: Request, siteOrigins: ReadonlyArray<string | undefined>) {
  if (SAFE_METHODS.has(request.method)) return false
  const origin = request.headers.get('origin')
  if (origin !== null) return !siteOrigins.some((site) => site && sameOrigin(site, origin))
  const fetchSite = request.headers.get('sec-fetch-site')
  return fetchSite !== null && fetchSite !== 'same-origin' && fetchSite !== 'none'
}

/** What a refused request answers: React Router renders it with the status page of docs/product.md §8. */
export const refusal = (kind: Refusal) => data({ refusal: kind }, { status: refusalStatus[kind] })

/**
 * The request React Router gets, and what to refuse. A cross-site request goes on without its body
 * (never read) and without Origin (React Router's own check would answer a bare 400 first), so the
 * root middleware can answer the status page for it. Any other request reads its form through a
 * guard: a body that is not a form, or a form that cannot be read, is a 4xx, not an exception.
 */
export function guardPageRequest(
  request: Request,
  siteOrigins: ReadonlyArray<string | undefined>,
): { request: Request; refused: Refusal | null } {
  if (isCrossSite(request, siteOrigins)) {
    const headers = new Headers(request.headers)
    for (const name of ['origin', 'content-type', 'content-length', 'transfer-encoding']) headers.delete(name)
    return {
      request: new Request(request.url, { method: request.method, headers, signal: request.signal }),
      refused: 'crossSite',
    }
  }
  if (SAFE_METHODS.has(request.method)) return { request, refused: null }
  const read = request.formData.bind(request)
  Object.defineProperty(request, 'formData', {
    value: async () => {
      const type = (request.headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase()
      if (!FORM_TYPES.has(type)) throw refusal('formType')
      try {
        return await read()
      } catch (error) {
        // undici's parse failures (no boundary, a truncated or malformed body) are TypeErrors;
        // anything else (a body cut off by the server's limits) keeps its own answer.
        if (error instanceof TypeError) throw refusal('formUnreadable')
        throw error
      }
    },
  })
  return { request, refused: null }
}

/** Root middleware (after i18n, so the status page speaks the visitor's language). */
export const refusalMiddleware: MiddlewareFunction<Response> = ({ context }, next) => {
  const refused = context.get(refusalContext)
  if (refused) throw refusal(refused)
  return next()
}
