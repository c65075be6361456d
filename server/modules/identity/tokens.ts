import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

// Random single-use tokens (stored only as their SHA-256) and the HS256 login token (a JWT).

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url')
export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url')

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

export function signJwt(claims: Record<string, unknown>, secret: string) {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`
}

/** The claims of a well-formed, correctly signed, unexpired HS256 token; otherwise null. */
export function verifyJwt(
  token: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Record<string, unknown> | null {
  const parts = token.split('.')
  if (parts.length !== 3 || token.length > 8192) return null
  const [header, payload, signature] = parts
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest()
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  try {
    const h = JSON.parse(Buffer.from(header, 'base64url').toString())
    if (h.alg !== 'HS256') return null
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
    if (!claims || typeof claims !== 'object') return null
    if (typeof claims.exp === 'number' && claims.exp <= nowSeconds) return null
    return claims
  } catch {
    return null
  }
}

/** Reads a JWT's claims without checking it: for the web UI, which trusts only the API's answers. */
export function decodeJwt(token: string): Record<string, unknown> | null {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())
  } catch {
    return null
  }
}
