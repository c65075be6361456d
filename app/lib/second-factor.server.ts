import { parseCookie, stringifySetCookie } from 'cookie'
import { decodeJwt } from '#server/modules/identity/tokens.ts'

// The web side of two-factor sign-in (decision 260). Between the password (or the provider) and
// the code, the browser holds the API's signed challenge in a short-lived httpOnly cookie, so it
// never appears in a URL or the page.
const CHALLENGE = 'second_factor'
const base = { path: '/auth', httpOnly: true, sameSite: 'lax' as const }

export const SECOND_FACTOR_PAGE = '/auth/second-factor'
export const SETUP_PAGE = '/profile/account-settings/two-factor'

export function challengeCookie(
  challenge: { challenge: string; expiresAt: string },
  redirectTo: string,
  secure: boolean,
) {
  const maxAge = Math.max(0, Math.floor((Date.parse(challenge.expiresAt) - Date.now()) / 1000))
  return stringifySetCookie({
    name: CHALLENGE,
    value: Buffer.from(JSON.stringify({ challenge: challenge.challenge, redirectTo })).toString('base64url'),
    maxAge,
    secure,
    ...base,
  })
}

export const clearChallengeCookie = () =>
  stringifySetCookie({ name: CHALLENGE, value: '', maxAge: 0, ...base })

export function readChallenge(request: Request): { challenge: string; redirectTo: string } | null {
  const raw = parseCookie(request.headers.get('cookie') ?? '')[CHALLENGE]
  if (!raw || raw.length > 4096) return null
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))
    return typeof value?.challenge === 'string' && typeof value?.redirectTo === 'string' ? value : null
  } catch {
    return null
  }
}

/**
 * A SuperAdmin signed in without a second factor holds a setup-only session (its token says
 * `mfa: 'setup'`; the API enforces it on every call): every page but the setup page, signing out
 * and the public error pages sends them to set it up first.
 */
export function isSetupOnly(token: string | null) {
  if (!token) return false
  // Asked a few times per page (the middleware, the layout): a token's claims never change.
  let setup = setupOnlyTokens.get(token)
  if (setup === undefined) {
    setup = decodeJwt(token)?.mfa === 'setup'
    if (setupOnlyTokens.size >= 1000) setupOnlyTokens.clear()
    setupOnlyTokens.set(token, setup)
  }
  return setup
}
const setupOnlyTokens = new Map<string, boolean>()

export function setupOnlyRedirect(token: string | null, pathname: string) {
  if (!isSetupOnly(token)) return null
  // With JavaScript on, React Router asks for `<page>.data`.
  pathname = pathname.replace(/\.data$/, '')
  if (pathname === SETUP_PAGE || pathname === '/auth/logout' || pathname.startsWith('/assets/')) return null
  return SETUP_PAGE
}

// Recovery codes are shown once, on the page the enabling redirects to (the old session ends with
// the enabling, so the answer to the form cannot render the page itself); they wait two minutes at
// most in an httpOnly cookie that only account settings receive (the page and its `.data` requests
// with JavaScript on) and that the page's first view clears.
const CODES = 'recovery_codes'
const codesBase = { path: '/profile/account-settings', httpOnly: true, sameSite: 'strict' as const }

export const recoveryCodesCookie = (codes: string[], secure: boolean) =>
  stringifySetCookie({ name: CODES, value: codes.join('.'), maxAge: 120, secure, ...codesBase })

export function takeRecoveryCodes(request: Request) {
  const raw = parseCookie(request.headers.get('cookie') ?? '')[CODES]
  if (!raw) return { codes: null, clear: null }
  const codes = raw
    .split('.')
    .filter((c) => /^[a-z0-9-]{5,20}$/.test(c))
    .slice(0, 20)
  return {
    codes: codes.length ? codes : null,
    clear: stringifySetCookie({ name: CODES, value: '', maxAge: 0, ...codesBase }),
  }
}
