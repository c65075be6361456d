import { parseCookie, stringifySetCookie } from 'cookie'
import { redirect } from 'react-router'
import { z } from 'zod'

// Notices that survive a redirect and work with JavaScript off: the action writes one into an
// httpOnly cookie, the layout's loader renders it on the next page and clears the cookie.
const FLASH_COOKIE = 'flash'
export const noticeSchema = z.object({
  kind: z.enum(['success', 'error', 'info']),
  title: z.string().max(200).optional(),
  message: z.string().max(2000),
})
export type FlashNotice = z.infer<typeof noticeSchema>

const base = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: process.env.NODE_ENV === 'production' && process.env.E2E !== '1' && !!process.env.PUBLIC_URL?.startsWith('https:') }

export function flashCookie(notice: FlashNotice) {
  return stringifySetCookie({ name: FLASH_COOKIE, value: Buffer.from(JSON.stringify(notice)).toString('base64url'), maxAge: 60, ...base })
}

export const clearFlashCookie = () => stringifySetCookie({ name: FLASH_COOKIE, value: '', maxAge: 0, ...base })

/** The pending notice, if any, and the Set-Cookie header that clears it. */
export function readFlash(request: Request): { notice: FlashNotice | null; clear: string | null } {
  const raw = parseCookie(request.headers.get('cookie') ?? '')[FLASH_COOKIE]
  if (!raw) return { notice: null, clear: null }
  try {
    const parsed = noticeSchema.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')))
    return { notice: parsed.success ? parsed.data : null, clear: clearFlashCookie() }
  } catch {
    return { notice: null, clear: clearFlashCookie() }
  }
}

export function redirectWithFlash(to: string, notice: FlashNotice, init: { headers?: HeadersInit } = {}) {
  const headers = new Headers(init.headers)
  headers.append('set-cookie', flashCookie(notice))
  return redirect(to, { headers })
}
