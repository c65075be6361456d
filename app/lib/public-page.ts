// A page that is the same for every visitor of a language (it reads nothing of the person asking)
// says so in the standard way: a shared cache in front of the server (a CDN, a caching proxy) may
// keep it for five seconds; browsers revalidate (max-age=0). A signed-in person's answer is made
// private by the session middleware, whatever the route says (decision 304).
export const PUBLIC_PAGE = 'public, max-age=0, s-maxage=5'

/** A route's `headers` export for a page that is the same for every visitor. */
export const publicPageHeaders = () => ({ 'cache-control': PUBLIC_PAGE })
