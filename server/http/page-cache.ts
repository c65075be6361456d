import { isbot } from 'isbot'
import { VISITOR_PAGE_HEADER as KEPT_PAGE_HEADER } from '../../app/lib/visitor-page.ts'
import { withHeaders } from '../../app/lib/response-headers.ts'
import { newNonce } from './security-headers.ts'

// A few seconds of memory for pages (decisions 033 and 015). Rendering a page is most of the
// server's work. Visitors' pages (the home page, Find Project, the blog, profiles) are the same for
// every visitor of a language, and crawlers and visitors ask for the same few often; a signed-in
// person pages back and forth through the same searches and lists.
//
// What is kept: GET answers, 200, without Set-Cookie, marked by their route (app/lib/visitor-page.ts)
// - for a request whose only cookie is the language: pages marked as visitor pages;
// - for a request with a session cookie (and at most the language besides): pages marked as
//   visitor or own pages, under a key that holds the session, so no one ever gets another's page.
// Any other cookie (a flash notice, sign-in state) means the page is rendered for that request.
// A request that says `Cache-Control: no-cache` or `max-age=0` (a browser's reload) is rendered
// afresh, and the fresh page replaces the kept one.
// For how long: `seconds` (PAGE_CACHE_SECONDS), and only until the next write this instance
// serves (any request that is not GET or HEAD, a write a loader makes, an outbox delivery), so
// whoever changes something sees it at once; other instances forget too when they share Redis
// (page-cache-bus.ts), and show it within `seconds` when they do not. Each
// answer gets its own CSP nonce: a fresh one replaces the one the kept copy was rendered with (done
// on a hit only, not when the page is kept: a reload keeps a copy on every render, decision 225).
const MAX_ENTRIES = 500
const MAX_BYTES = 1 << 20
const NONCE_IN_CSP = /'nonce-([^']+)'/
const NONCE_LENGTH = newNonce().length
const SESSION_PREFIX = 'session='

/** A reload (Cache-Control: no-cache or max-age=0, or Pragma: no-cache) asks for the page as it is now. */
function wantsFresh(request: Request) {
  const control = request.headers.get('cache-control') ?? ''
  return (
    /\bno-cache\b|\bmax-age=0\b/.test(control) || (!control && request.headers.get('pragma') === 'no-cache')
  )
}

interface Kept {
  status: number
  headers: [string, string][]
  /** The page as sent (bytes: a page rendered for a reload is kept without being decoded, and a hit is not encoded again). */
  body: Uint8Array
  /** The CSP nonce the copy was rendered with ('' for none), replaced on every answer. */
  nonce: string
  /** Where the nonce is in `body`: a fresh nonce of the same length is written over it there. */
  nonceAt: number[]
  expires: number
}

export interface PageCache {
  serve(request: Request, render: () => Promise<Response>): Promise<Response>
  /** Something changed here: every kept page is forgotten, and the listeners are told (other instances, page-cache-bus.ts). */
  invalidate(): void
  /** Something changed elsewhere: every kept page is forgotten. */
  forget(): void
  onInvalidate(listener: () => void): void
  /**
   * Data a session's pages all show (who is signed in, the bell, the messages menu), kept under
   * `key` by the same rules as pages: `seconds` at most, forgotten by any write or delivery, never
   * kept when a write happened while it was read. Unlike a page, a reload does not skip it: data
   * read since the last write is what a fresh read would answer (decision 200).
   */
  remember<T>(key: string, read: () => Promise<T>): Promise<T>
  /**
   * A write or delivery is under way (until the returned function is called): what is kept goes now
   * and again at the end, and meanwhile remembered data is read afresh and not kept, so a page
   * asked for because of the change (a hub event sent from inside it) never gets data from before it.
   */
  hold(): () => void
}

export function createPageCache({
  seconds,
  now = Date.now,
}: {
  seconds: number
  now?: () => number
}): PageCache {
  const kept = new Map<string, Kept>()
  const rendering = new Map<string, Promise<Kept | null>>()
  let generation = 0

  /** The key of a request whose page may be kept, and whether it has a session; null when it may not. */
  function keyOf(request: Request): { key: string; session: boolean } | null {
    if (seconds <= 0 || request.method !== 'GET') return null
    const cookies = (request.headers.get('cookie') ?? '')
      .split(';')
      .map((c) => c.trim())
      .filter(Boolean)
    if (cookies.some((c) => !c.startsWith('lang=') && !c.startsWith(SESSION_PREFIX))) return null
    const agent = request.headers.get('user-agent')
    // Crawlers get the whole document at once, browsers a stream: keep them apart.
    const key = [
      request.url,
      cookies.join(';'),
      request.headers.get('accept-language') ?? '',
      agent && isbot(agent) ? 'bot' : '',
    ].join('\n')
    return { key, session: cookies.some((c) => c.startsWith(SESSION_PREFIX)) }
  }

  /** May this answer be kept for this request? Visitor pages for anyone, own pages only for a session. */
  function keepable(response: Response, session: boolean) {
    const mark = response.headers.get(KEPT_PAGE_HEADER)
    return (
      response.status === 200 &&
      !response.headers.has('set-cookie') &&
      (mark === 'visitor' || (mark === 'own' && session))
    )
  }

  function entryOf(response: Response, body: Uint8Array): Kept | null {
    const nonce = response.headers.get('content-security-policy')?.match(NONCE_IN_CSP)?.[1] ?? ''
    // A fresh nonce is written over the kept one, so they must be as long (entry.server.tsx's always are).
    if (nonce && nonce.length !== NONCE_LENGTH) return null
    const nonceAt: number[] = []
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
    for (
      let at = nonce ? bytes.indexOf(nonce, 0, 'latin1') : -1;
      at >= 0;
      at = bytes.indexOf(nonce, at + nonce.length, 'latin1')
    )
      nonceAt.push(at)
    return {
      status: response.status,
      headers: [...response.headers.entries()],
      body,
      nonce,
      nonceAt,
      expires: now() + seconds * 1000,
    }
  }

  // The mark is for this cache only, never for the browser. The route's Response is never changed
  // (its headers may be immutable, as Response.redirect's are): the mark comes off a copy.
  function unmarked(response: Response) {
    return response.headers.has(KEPT_PAGE_HEADER)
      ? withHeaders(response, (headers) => headers.delete(KEPT_PAGE_HEADER))
      : response
  }

  function answer(entry: Kept) {
    const nonce = entry.nonce ? newNonce() : ''
    const fill = (text: string) => (entry.nonce ? text.replaceAll(entry.nonce, nonce) : text)
    const body = Buffer.from(entry.body)
    for (const at of entry.nonceAt) body.write(nonce, at, 'latin1')
    return new Response(body, {
      status: entry.status,
      headers: entry.headers.map(([k, v]): [string, string] => [k, fill(v)]),
    })
  }

  const listeners: Array<() => void> = []
  const data = new Map<string, { value: unknown; expires: number }>()
  let holds = 0
  function forget() {
    generation++
    kept.clear()
    data.clear()
  }

  return {
    forget,
    invalidate() {
      forget()
      for (const listener of listeners) listener()
    },
    onInvalidate(listener) {
      listeners.push(listener)
    },
    hold() {
      this.invalidate()
      holds++
      let released = false
      return () => {
        if (released) return
        released = true
        holds--
        this.invalidate()
      }
    },
    async remember<T>(key: string, read: () => Promise<T>) {
      if (seconds <= 0 || holds > 0) return read()
      const hit = data.get(key)
      if (hit && hit.expires > now()) return hit.value as T
      data.delete(key)
      const startedAt = generation
      const value = await read()
      if (startedAt === generation && holds === 0) {
        if (data.size >= MAX_ENTRIES) data.delete(data.keys().next().value!)
        data.set(key, { value, expires: now() + seconds * 1000 })
      }
      return value
    },
    async serve(request, render) {
      const asked = keyOf(request)
      if (!asked) return unmarked(await render())
      const { key, session } = asked
      const fresh = wantsFresh(request)
      const hit = fresh ? undefined : kept.get(key)
      // A write empties `kept`, so whatever is here was rendered after the last write.
      if (hit && hit.expires > now()) return answer(hit)
      kept.delete(key)
      // One render per page at a time: visitors arriving meanwhile wait for the same one, or render
      // their own when it turns out not to be a page to keep. A reload renders its own.
      const pending = fresh ? undefined : rendering.get(key)
      if (pending) {
        const entry = await pending
        return entry ? answer(entry) : unmarked(await render())
      }
      const { promise, resolve } = Promise.withResolvers<Kept | null>()
      rendering.set(key, promise)
      try {
        const startedAt = generation
        const rendered = await render()
        if (!keepable(rendered, session)) {
          resolve(null)
          return unmarked(rendered)
        }
        const response = unmarked(rendered)
        const bytes = await response.bytes()
        // A write that happened while this page rendered makes the copy stale before it is kept.
        const entry =
          bytes.byteLength <= MAX_BYTES && startedAt === generation ? entryOf(response, bytes) : null
        if (entry) {
          if (kept.size >= MAX_ENTRIES) kept.delete(kept.keys().next().value!)
          kept.set(key, entry)
        }
        resolve(entry)
        // This request gets the page as rendered, with its own nonce already in it (a hit copies the kept bytes first).
        return new Response(bytes, { status: response.status, headers: response.headers })
      } catch (error) {
        resolve(null)
        throw error
      } finally {
        rendering.delete(key)
      }
    },
  }
}
