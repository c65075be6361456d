// A Response may have headers that cannot change: Response.redirect(), a fetch() result (a file
// passed through from the API on another host), Response.error(). Changing them throws, and a page
// that should redirect answers 500 instead (issue 14, item 6). So whoever adds or removes headers
// on a Response it did not create (the page cache, the root middleware) changes a copy: the body
// streams through untouched, only the headers are new.
export function withHeaders(response: Response, change: (headers: Headers) => void): Response {
  // A network error (Response.error(), status 0) has no headers to change and cannot be copied.
  if (response.status === 0) return response
  const headers = new Headers(response.headers)
  change(headers)
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

// Signed-in answers are for one person: no browser cache, shared or not, keeps them (issue 14).
export const PRIVATE_PAGE = 'private, no-store'
