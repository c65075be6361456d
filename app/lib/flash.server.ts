import { randomBytes } from 'node:crypto'
import { parseCookie, stringifySetCookie } from 'cookie'
import { redirect } from 'react-router'
import { z } from 'zod'

// Notices that survive a redirect and work with JavaScript off: the action writes one into an
// httpOnly cookie, the layout's loader renders it on the next page (decision 229).
//
// The cookie names the page it was meant for (the redirect's path and query). Only a request for
// that page shows it, so a revalidation the hub triggers in this or another tab on another page
// (notifications, chat) cannot take it away. Several requests for that page may race (the
// navigation's own load, a revalidation that restarts it, a reload of its data): the first one
// that shows it does not clear it but marks it shown and shortens its life to SHOWN_SECONDS, so
// the next ones show the same notice (its id lets the page know it is the same one) and it then
// expires by itself. A pending notice lives PENDING_SECONDS, in case its page is never loaded.
const FLASH_COOKIE = 'flash'
const PENDING_SECONDS = 60
const SHOWN_SECONDS = 5
export const noticeSchema = z.object({
  kind: z.enum(['success', 'error', 'info']),
  title: z.string().max(200).optional(),
  message: z.string().max(2000),
})
export type FlashNotice = z.infer<typeof noticeSchema>
/** A notice as the layout gives it to the page: `id` tells two reads of the same flash apart from two flashes. */
export type ShownNotice = FlashNotice & { id: string }

const stored = z.object({
  notice: noticeSchema,
  id: z.string().max(32),
  to: z.string().max(2000),
  shown: z.boolean().optional(),
})
type Stored = z.infer<typeof stored>

const base = {
  path: '/',
  httpOnly: true,
  sameSite: 'lax' as const,
  secure:
    process.env.NODE_ENV === 'production' &&
    process.env.E2E !== '1' &&
    !!process.env.PUBLIC_URL?.startsWith('https:'),
}

/** The page a URL shows, as React Router's data requests name it (no `.data`, no `_routes`, no hash). */
export function pageOf(url: string | URL) {
  const u = new URL(url, 'http://page.invalid')
  const pathname = u.pathname.endsWith('/_.data')
    ? u.pathname.slice(0, -'_.data'.length)
    : u.pathname.replace(/\.data$/, '')
  const search = new URLSearchParams(u.search)
  search.delete('_routes')
  const query = search.toString()
  return query ? `${pathname}?${query}` : pathname
}

const write = (value: Stored, maxAge: number) =>
  stringifySetCookie({
    name: FLASH_COOKIE,
    value: Buffer.from(JSON.stringify(value)).toString('base64url'),
    maxAge,
    ...base,
  })

/** The Set-Cookie header of a notice for the page at `to` (where the response redirects). */
export function flashCookie(notice: FlashNotice, to: string) {
  return write({ notice, id: randomBytes(6).toString('base64url'), to: pageOf(to) }, PENDING_SECONDS)
}

export const clearFlashCookie = () =>
  stringifySetCookie({ name: FLASH_COOKIE, value: '', maxAge: 0, ...base })

function parse(raw: string): Stored | null {
  try {
    const parsed = stored.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The notice for the page `request` loads, if any, and the Set-Cookie header to answer with. */
export function readFlash(request: Request): { notice: ShownNotice | null; setCookie: string | null } {
  const raw = parseCookie(request.headers.get('cookie') ?? '')[FLASH_COOKIE]
  if (!raw) return { notice: null, setCookie: null }
  const flash = parse(raw)
  if (!flash) return { notice: null, setCookie: clearFlashCookie() }
  // Another page's notice: left for its page.
  if (flash.to !== pageOf(request.url)) return { notice: null, setCookie: null }
  return {
    notice: { ...flash.notice, id: flash.id },
    setCookie: flash.shown ? null : write({ ...flash, shown: true }, SHOWN_SECONDS),
  }
}

export function redirectWithFlash(to: string, notice: FlashNotice, init: { headers?: HeadersInit } = {}) {
  const headers = new Headers(init.headers)
  headers.append('set-cookie', flashCookie(notice, to))
  return redirect(to, { headers })
}
