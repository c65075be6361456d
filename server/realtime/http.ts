import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { STATUS_CODES } from 'node:http'

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  })
  res.end(text)
}

export function sendJson(res: ServerResponse, value: unknown): void {
  const body = JSON.stringify(value)
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  })
  res.end(body)
}

/** Answers an upgrade request that will not become a WebSocket; the client sees a normal HTTP error. */
export function rejectUpgrade(
  socket: Duplex,
  status: number,
  text = STATUS_CODES[status] ?? 'Error',
  headers: Record<string, string> = {},
): void {
  if (socket.destroyed) return
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Connection: close',
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ]
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`)
}

export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization
  if (!header) return null
  const match = /^Bearer\s+(.+)$/i.exec(header.trim())
  return match ? match[1].trim() : null
}

/**
 * Tolerant Cookie header parsing: the Node SignalR client copies cookie attributes (`; Path=/`) into
 * the header of WebSocket and SSE requests, and malformed pairs must not break the rest.
 */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  if (!header) return cookies
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq <= 0) continue
    const name = part.slice(0, eq).trim()
    let value = part.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1)
    if (!name || cookies.has(name)) continue
    try {
      cookies.set(name, decodeURIComponent(value))
    } catch {
      cookies.set(name, value)
    }
  }
  return cookies
}

export type OriginVerdict = { allowed: false } | { allowed: true; corsOrigin: string | null }

/**
 * Requests without Origin (non-browser clients) and same-origin requests pass; a cross-origin browser
 * request passes only if its origin is listed, and then gets credentialed CORS headers.
 */
export function checkOrigin(req: IncomingMessage, allowedOrigins: ReadonlySet<string>): OriginVerdict {
  const origin = req.headers.origin
  if (!origin) return { allowed: true, corsOrigin: null }
  if (allowedOrigins.has(origin)) return { allowed: true, corsOrigin: origin }
  try {
    if (origin !== 'null' && new URL(origin).host === req.headers.host)
      return { allowed: true, corsOrigin: null }
  } catch {
    // An unparseable Origin is refused below.
  }
  return { allowed: false }
}

export function corsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    Vary: 'Origin',
  }
}

const PREFLIGHT_HEADERS = ['x-requested-with', 'x-signalr-user-agent', 'authorization', 'content-type']

export function preflightHeaders(req: IncomingMessage, origin: string): Record<string, string> {
  const requested = String(req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => /^[a-z0-9-]+$/.test(h))
  return {
    ...corsHeaders(origin),
    'Access-Control-Allow-Methods': 'GET, POST, DELETE',
    'Access-Control-Allow-Headers': [...new Set([...PREFLIGHT_HEADERS, ...requested])].join(', '),
    'Access-Control-Max-Age': '600',
  }
}
