import { parseCookie, stringifySetCookie } from 'cookie'
import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import type { SessionUser } from '#server/modules/identity/contract.ts'
import {
  can,
  permissionForPath,
  requiresLogin,
  safeRedirect,
  type Permission,
} from '#server/modules/identity/permissions.ts'
import { appContext } from './context'
import { languageCookie } from './i18n'
import { PRIVATE_PAGE, withHeaders } from './response-headers'
import { setupOnlyRedirect } from './second-factor.server'

// The web session: the API's login token in an httpOnly, SameSite=Lax cookie (Secure in
// production on a real host), never in localStorage. The root middleware reads it once per
// request, asks the API who it names (so a revoked session ends at once) and keeps the answer in
// the router context; loaders then call the API with it as the bearer token.
export const SESSION_COOKIE = 'session'

export interface WebSession {
  token: string | null
  user: SessionUser | null
}
export const sessionContext = createContext<WebSession>({ token: null, user: null })

const loopback = (host: string) => ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host)

/**
 * Secure cookies in production (decision 261): when PUBLIC_URL is https (also behind a proxy that
 * ends TLS and talks plain http on loopback), when the request came over https, or when the host
 * is not this machine. Only a plain-http site on loopback (the tests, a trial run) goes without.
 */
export function secureCookies(context: Readonly<RouterContextProvider>, request: Request) {
  const deps = context.get(appContext)
  const url = new URL(request.url)
  return (
    deps.mode === 'production' &&
    (deps.publicUrl.startsWith('https:') || url.protocol === 'https:' || !loopback(url.hostname))
  )
}

function cookieOptions(context: Readonly<RouterContextProvider>, request: Request) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: secureCookies(context, request) }
}

export function readToken(request: Request) {
  const value = parseCookie(request.headers.get('cookie') ?? '')[SESSION_COOKIE]
  return value && value.length < 8192 ? value : null
}

export function sessionCookie(
  context: Readonly<RouterContextProvider>,
  request: Request,
  token: string,
  expiresAt: string,
) {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000))
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: token,
    maxAge,
    ...cookieOptions(context, request),
  })
}

/**
 * The language choice (docs/product.md §1: the cookie `lang`, a bare code). Nothing in the browser
 * reads it, so it is httpOnly, and Secure where the session cookie is.
 */
export function languageCookieHeader(
  context: Readonly<RouterContextProvider>,
  request: Request,
  language: string,
) {
  return stringifySetCookie({
    name: languageCookie,
    value: language,
    maxAge: 365 * 24 * 3600,
    ...cookieOptions(context, request),
  })
}

export function clearSessionCookie(context: Readonly<RouterContextProvider>, request: Request) {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: '',
    maxAge: 0,
    ...cookieOptions(context, request),
  })
}

/** Root middleware: resolves the cookie to the current user, clearing a cookie the API refuses. */
export function createSessionMiddleware(
  fetchUser: (context: Readonly<RouterContextProvider>, token: string) => Promise<SessionUser | null>,
): MiddlewareFunction<Response> {
  return async ({ request, context, url }, next) => {
    const token = readToken(request)
    let clear = false
    if (token) {
      const user = await fetchUser(context, token)
      if (user) context.set(sessionContext, { token, user })
      else clear = true
    }
    const path = url.pathname
    const session = context.get(sessionContext)
    // docs/product.md §6 guards, from the one list of permissions: logged out → login (and back here after).
    if (requiresLogin(path) && !session.user) {
      const to = `/auth/login?redirectTo=${encodeURIComponent(path + url.search)}`
      throw redirect(
        to,
        clear ? { headers: { 'set-cookie': clearSessionCookie(context, request) } } : undefined,
      )
    }
    const setup = session.user ? setupOnlyRedirect(token, path) : null
    if (setup) throw redirect(setup)
    const needed = permissionForPath(path)
    if (needed && session.user && !can(session.user.roles, needed)) throw redirect('/auth/unauthorized')
    const response = await next()
    if (!clear && !session.user) return response
    // A copy: the route's Response may have immutable headers (a redirect, a file from the API).
    return withHeaders(response, (headers) => {
      if (clear) headers.append('set-cookie', clearSessionCookie(context, request))
      // Whatever was rendered for a signed-in person is theirs alone, and an answer that ends a
      // session is that browser's: no cache keeps either, unless the answer already chose a private
      // policy of its own (a file's, the search suggestions').
      if ((session.user || clear) && !/\b(private|no-store)\b/.test(headers.get('cache-control') ?? ''))
        headers.set('cache-control', PRIVATE_PAGE)
    })
  }
}

export function getSession(context: Readonly<RouterContextProvider>) {
  return context.get(sessionContext)
}

export function getUser(context: Readonly<RouterContextProvider>) {
  return context.get(sessionContext).user
}

/** The signed-in user, or a redirect to the login page that comes back to this page (pass the loader's `url`). */
export function requireUser(context: Readonly<RouterContextProvider>, url: URL) {
  const user = getUser(context)
  if (!user) throw redirect(`/auth/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`)
  return user
}

export function requirePermission(
  context: Readonly<RouterContextProvider>,
  url: URL,
  permission: Permission,
) {
  const user = requireUser(context, url)
  if (!can(user.roles, permission)) throw redirect('/auth/unauthorized')
  return user
}

/** Where signing in lands when no page asked for it (docs/product.md §2 `dashboard`): the user's own work, not the marketing page. */
export const SIGNED_IN_HOME = '/dashboard'

/** Where to go after signing in: the local path asked for, or the dashboard. */
export function redirectTarget(url: URL, formValue?: FormDataEntryValue | null) {
  return safeRedirect(formValue ?? url.searchParams.get('redirectTo'), SIGNED_IN_HOME)
}
