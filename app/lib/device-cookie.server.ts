import { parseCookie, stringifySetCookie } from 'cookie'
import type { RouterContextProvider } from 'react-router'
import { REMEMBERED_DEVICE_DAYS } from '#server/modules/identity/devices.ts'
import { secureCookies } from './session.server'

// The remembered-device token (decision 091) lives in its own httpOnly cookie, sent only to the
// sign-in pages, and outlives the session: signing out does not make the browser a stranger.
export const DEVICE_COOKIE = 'device'
const path = '/auth'

export function readDeviceToken(request: Request) {
  const value = parseCookie(request.headers.get('cookie') ?? '')[DEVICE_COOKIE]
  return value && value.length <= 200 ? value : undefined
}

export function deviceCookie(context: Readonly<RouterContextProvider>, request: Request, token: string) {
  return stringifySetCookie({
    name: DEVICE_COOKIE,
    value: token,
    maxAge: REMEMBERED_DEVICE_DAYS * 86_400,
    path,
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(context, request),
  })
}
