// The web UI calls the API in process: a Request in, a Response out, no socket (DESIGN.md). A JSON
// answer to such a call carries its text beside the Response instead of in a body stream, so the
// page's loader parses the text at once: no stream is built, encoded to bytes and read back for
// each of the several calls a page makes. The caller still gets its own copy (JSON.parse), as it
// would over HTTP. Answers to HTTP clients are ordinary Responses.
// A registered symbol, not a module-level WeakMap: the built web app bundles its own copy of this
// module, and both copies must see the same mark.
const TEXT = Symbol.for('workneer.api.inProcessJson')
type Marked = Response & { [TEXT]?: string }

export function inProcessJson(value: unknown, init?: ResponseInit) {
  const response: Marked = new Response(null, init)
  response.headers.set('content-type', 'application/json')
  response[TEXT] = JSON.stringify(value)
  return response
}

/** The JSON text of an in-process answer, or null for an ordinary Response (read its body). */
export function inProcessText(response: Response) {
  return (response as Marked)[TEXT] ?? null
}
