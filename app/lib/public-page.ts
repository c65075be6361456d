// A page that is the same for every visitor of a language (it reads nothing of the person asking)
// says so in the standard way: a shared cache may keep it for a few seconds. The server keeps it
// that long for the next visitors (server/http/visitor-pages.ts, decision 304), and so may a proxy
// in front of it; browsers revalidate (max-age=0). A signed-in person's answer is made private
// by the session middleware, whatever the route says.
export const PUBLIC_PAGE = 'public, max-age=0, s-maxage=5'

/** A route's `headers` export for a page that is the same for every visitor. */
export const publicPageHeaders = () => ({ 'cache-control': PUBLIC_PAGE })
