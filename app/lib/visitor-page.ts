// A route whose page, for a visitor without a session, depends only on its URL and language, and
// whose loader only reads, exports `handle = visitorPage`; entry.server.tsx then marks the answer
// and the server keeps it for a few seconds (server/http/page-cache.ts, decision 033). A page
// whose loader writes (confirming an email from a link) must not.
export const VISITOR_PAGE_HEADER = 'x-workneer-visitor-page'
export const visitorPage = { visitorPage: true } as const

export function isVisitorPage(handle: unknown) {
  return typeof handle === 'object' && handle !== null && (handle as { visitorPage?: unknown }).visitorPage === true
}
