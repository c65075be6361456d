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
