import { randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'

// Headers every response carries. The Content-Security-Policy of pages is set where the page is
// rendered, because it holds that render's nonce.
export function setSecurityHeaders(res: ServerResponse, production: boolean) {
  res.setHeader('x-content-type-options', 'nosniff')
  res.setHeader('referrer-policy', 'strict-origin-when-cross-origin')
  res.setHeader('x-frame-options', 'DENY')
  res.setHeader('cross-origin-opener-policy', 'same-origin')
  res.setHeader('permissions-policy', 'camera=(), microphone=(), geolocation=()')
  if (production) res.setHeader('strict-transport-security', 'max-age=15552000')
}

/** A fresh nonce for one HTML answer (decision 261). */
export const newNonce = () => randomBytes(16).toString('base64')

/**
 * The one Content-Security-Policy of every HTML answer (pages, /api/v1/docs, the refusal pages):
 * scripts only from this site or inline with this answer's nonce. `formActions`: where a form's
 * answer may send the browser besides this site (a gateway's hosted checkout, without JavaScript).
 */
export function contentSecurityPolicy(nonce: string, formActions: string[] = []) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    ["form-action 'self'", ...formActions].join(' '),
    "object-src 'none'",
  ].join('; ')
}
