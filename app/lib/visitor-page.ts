// A route marks itself `handle = visitorPage` when, for a visitor without a session, the page
// depends only on its URL and language and its loader only reads. entry.server.tsx passes the mark
// on in a header, and the server may then keep the page a few seconds (server/http/page-cache.ts).
// A page whose loader writes (confirming an email from a mailed link) must not be marked.
// The header's name is the page cache's (server/http/page-cache.ts and its tests).
export const VISITOR_PAGE_HEADER = 'x-workneer-kept-page'
export const visitorPage = { visitorPage: true } as const

export function isVisitorPage(handle: unknown): boolean {
  return (
    typeof handle === 'object' &&
    handle !== null &&
    (handle as { visitorPage?: unknown }).visitorPage === true
  )
}
