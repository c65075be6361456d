// Pages the server may keep for a few seconds (server/http/page-cache.ts, decisions 033 and 015).
// A route marks itself, and entry.server.tsx passes the mark to the cache in a header:
// - `handle = visitorPage`: for a visitor without a session the page depends only on its URL and
//   language, and its loader only reads. It is kept for visitors, and for each session apart.
// - `handle = ownPage`: a signed-in page whose loader only reads; it depends on the URL, the
//   language and who is signed in. It is kept for each session apart, never for visitors.
// A page whose loader writes (confirming an email from a mailed link) must not be marked.
export const KEPT_PAGE_HEADER = 'x-workneer-kept-page'
export const visitorPage = { keptPage: 'visitor' } as const
export const ownPage = { keptPage: 'own' } as const
export type KeptPage = 'visitor' | 'own'

export function keptPageOf(handle: unknown): KeptPage | null {
  const mark =
    typeof handle === 'object' && handle !== null ? (handle as { keptPage?: unknown }).keptPage : null
  return mark === 'visitor' || mark === 'own' ? mark : null
}
