import type { IncomingMessage } from 'node:http'
import type { Refusal } from './refusals.ts'

// What every request must be before anything serves it (decision 080). Node's parser already
// refuses what is not HTTP (a garbled request line, a lowercase or unknown token as method, headers
// past 16 KB); what it lets through but the web's Request cannot represent is refused here, so no
// handler meets it: a version other than HTTP/1.x, a method outside what the site serves (TRACE,
// CONNECT, PROPFIND…), a target that is not a path, a Host that is missing, repeated or not a host.

/** The methods any part of the site serves; anything else is 501 for every path (RFC 9110 §15.6.2). */
export const SERVED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

// A DNS name or IPv4 address (letters, digits, dots, hyphens; underscores for internal names) or
// a bracketed IPv6 address, then an optional port.
const HOST = /^(?:[a-z0-9._-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i

export function checkRequest(req: IncomingMessage): Refusal | null {
  // Node's parser lets HTTP/0.9 and HTTP/2.0 request lines through; only 1.0 and 1.1 are HTTP/1.
  if (req.httpVersionMajor !== 1) return { status: 505, detail: `HTTP/${req.httpVersion} is not supported` }
  if (!SERVED_METHODS.has(req.method ?? '')) return { status: 501, detail: `${req.method} is not supported` }
  const target = req.url ?? ''
  if (!target.startsWith('/')) return { status: 400, detail: 'The request target must be a path' }
  const hosts = hostHeaders(req)
  // HTTP/1.0 may leave Host out (Node's parser requires it of HTTP/1.1); it may never repeat it.
  if (hosts.length > 1) return { status: 400, detail: 'The request has more than one Host header' }
  if (hosts.length === 0)
    return req.httpVersion === '1.0' ? null : { status: 400, detail: 'The request has no Host header' }
  if (!validHost(hosts[0])) return { status: 400, detail: 'The Host header is not a valid host' }
  return null
}

export function validHost(value: string) {
  if (!HOST.test(value)) return false
  const port = /:(\d+)$/.exec(value)?.[1]
  if (port !== undefined && Number(port) > 65535) return false
  const url = URL.parse(`http://${value}/`)
  return url !== null && url.pathname === '/' && !url.username
}

function hostHeaders(req: IncomingMessage) {
  const values: string[] = []
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i].toLowerCase() === 'host') values.push(req.rawHeaders[i + 1])
  return values
}
