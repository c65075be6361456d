import { isbot } from 'isbot'
import { newNonce } from './security-headers.ts'

// Visitors' pages kept for a few seconds (decision 304), as a shared HTTP cache in front of the
// server would keep them: a page whose route says `Cache-Control: public, s-maxage=N`
// (app/lib/public-page.ts) is the same for every visitor of a language, so its answer is kept for
// N seconds and given to the next visitors asking for the same address. Only requests with no
// cookie but the language are served from here; a signed-in person's page is always rendered (the
// session middleware makes it private), and so is an answer that sets a cookie. Each answer gets a
// fresh CSP nonce, written over the one the kept copy was rendered with.
const MAX_PAGES = 200
const S_MAXAGE = /\bs-maxage=(\d+)/
const NONCE_IN_CSP = /'nonce-([^']+)'/

interface KeptPage {
  expires: number
  status: number
  headers: [string, string][]
  body: string
  nonce: string
}

/** The key of a visitor's GET, or null when the request may carry someone's own state. */
function keyOf(request: Request) {
  if (request.method !== 'GET') return null
  const cookies = (request.headers.get('cookie') ?? '').split(';').map((c) => c.trim())
  if (cookies.some((c) => c && !c.startsWith('lang='))) return null
  // The language comes from the cookie, ?lng= or Accept-Language; crawlers get the whole document at once.
  const bot = isbot(request.headers.get('user-agent') ?? '') ? 'bot' : 'browser'
  return [request.url, cookies.join(';'), request.headers.get('accept-language') ?? '', bot].join('\n')
}

function keepFor(response: Response) {
  if (response.status !== 200 || response.headers.has('set-cookie')) return 0
  const control = response.headers.get('cache-control') ?? ''
  if (!/\bpublic\b/.test(control)) return 0
  return Number(S_MAXAGE.exec(control)?.[1] ?? 0)
}

function answer(page: KeptPage) {
  const nonce = newNonce()
  const swap = (text: string) => (page.nonce ? text.replaceAll(page.nonce, nonce) : text)
  const headers = page.headers.map(([name, value]): [string, string] => [name, swap(value)])
  return new Response(swap(page.body), { status: page.status, headers })
}

export function createVisitorPages({ now = Date.now }: { now?: () => number } = {}) {
  const kept = new Map<string, KeptPage>()
  return async function serve(request: Request, render: () => Promise<Response>): Promise<Response> {
    const key = keyOf(request)
    if (!key) return render()
    const page = kept.get(key)
    // A reload (Cache-Control: no-cache or max-age=0) asks for the page as it is now.
    const fresh = /\bno-cache\b|\bmax-age=0\b/.test(request.headers.get('cache-control') ?? '')
    if (page && page.expires > now() && !fresh) return answer(page)
    const response = await render()
    const seconds = keepFor(response)
    if (seconds <= 0) return response
    const body = await response.text()
    const headers = [...response.headers]
    const nonce = NONCE_IN_CSP.exec(response.headers.get('content-security-policy') ?? '')?.[1] ?? ''
    kept.delete(key)
    kept.set(key, { expires: now() + seconds * 1000, status: response.status, headers, body, nonce })
    if (kept.size > MAX_PAGES) kept.delete(kept.keys().next().value!)
    return new Response(body, { status: response.status, headers })
  }
}

export type VisitorPages = ReturnType<typeof createVisitorPages>
