import fs from 'node:fs'
import { contentSecurityPolicy, newNonce } from './security-headers.ts'
import path from 'node:path'
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import { locales, type Locale } from '../db/schema.ts'
import { dropRestOfBody } from './linger.ts'
import { errorTitles, type ErrorTitle } from '../api/errors.ts'

// What the request guard says when it refuses a request before any handler runs (or when one
// fails): to the API in its own JSON error shape, to pages with a small page in the visitor's
// language (a browser shows it: a file too large for the form is the everyday case), to anything
// else in text. Every refusal closes the connection: the rest of the body, if any, is dropped unread.

/** How a refusal is written: the API's JSON, a page, or plain text. */
export type RefusalFormat = 'json' | 'page' | 'text'
export type RefusalStatus = 400 | 405 | 413 | 500 | 501 | 505

type Pair = { title: string; body: string }
/** locales/<lng>/http.json, and the two keys of common.json the 500 page shares with the app's error notice. */
type Texts = {
  http: {
    tooLarge: { title: string; file: string; form: string }
    badRequest: Pair
    notImplemented: Pair
    reference: string
    units: { kb: string; mb: string }
  }
  common: { errors: { serverError: string; fallback: string }; nav: { home: string } }
}
const root = path.resolve(import.meta.dirname, '../../locales')
const cache = new Map<Locale, Texts>()
function texts(locale: Locale): Texts {
  let t = cache.get(locale)
  if (!t) {
    const read = (ns: string) => JSON.parse(fs.readFileSync(path.join(root, locale, `${ns}.json`), 'utf8'))
    cache.set(locale, (t = { http: read('http'), common: read('common') }))
  }
  return t
}

const fill = (s: string, vars: Record<string, string>) =>
  s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => vars[k] ?? '')
const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** The visitor's language as the pages choose it: the `lang` cookie, then Accept-Language, then English. */
export function visitorLanguage(req: IncomingMessage): Locale {
  const cookie = /(?:^|;\s*)lang=([a-z]{2})\b/.exec(req.headers.cookie ?? '')?.[1]
  if ((locales as readonly string[]).includes(cookie ?? '')) return cookie as Locale
  for (const part of String(req.headers['accept-language'] ?? '').split(',')) {
    const code = part.split(';')[0].trim().slice(0, 2).toLowerCase()
    if ((locales as readonly string[]).includes(code)) return code as Locale
  }
  return 'en'
}

/** A size as people read it: 64 KB, 800 KB, 10 MB. */
function size(bytes: number, t: Texts) {
  const kb = Math.round(bytes / 1024)
  return kb >= 1024 && kb % 1024 === 0
    ? fill(t.http.units.mb, { n: String(kb / 1024) })
    : fill(t.http.units.kb, { n: String(kb) })
}

export interface Refusal {
  status: RefusalStatus
  /** For the API's `detail` and the text answers (English, like the API's other details). */
  detail: string
  /** 405 only: the methods served at this path. */
  allow?: string
  /** 413 only: the limit that was passed, and whether it was a file's (uploads) or a form's. */
  limit?: { bytes: number; file: boolean }
}

const apiTitles: Record<RefusalStatus, ErrorTitle> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  500: 'Server Error',
  501: 'Not Implemented',
  505: 'HTTP Version Not Supported',
}

export function answer(
  req: IncomingMessage,
  res: ServerResponse,
  format: RefusalFormat,
  refusal: Refusal,
  requestId: string,
) {
  if (res.headersSent) return void res.destroy()
  const { status } = refusal
  // no-transform: the answer must go out as written now, not held back by the compression of pages.
  const headers: Record<string, string> = {
    connection: 'close',
    'cache-control': 'private, no-store, no-transform',
  }
  if (refusal.allow) headers.allow = refusal.allow
  let body: string
  if (format === 'json') {
    headers['content-type'] = 'application/json; charset=utf-8'
    const detail =
      status === 500 ? 'Seems like something went wrong. please contact your administrator' : refusal.detail
    const title = apiTitles[status]
    body = JSON.stringify({ status, code: errorTitles[title], title, detail, errors: {}, requestId })
  } else if (format === 'page') {
    headers['content-type'] = 'text/html; charset=utf-8'
    headers['content-security-policy'] = contentSecurityPolicy(newNonce())
    body = page(visitorLanguage(req), refusal, requestId)
  } else {
    headers['content-type'] = 'text/plain; charset=utf-8'
    body = status === 500 ? `${STATUS_CODES[500]}\n` : `${refusal.detail}\n`
  }
  headers['content-length'] = String(Buffer.byteLength(body))
  res.writeHead(status, headers)
  if (req.method !== 'HEAD') res.write(body)
  // The answer is whole now; ending it closes the connection, which waits for the client to stop
  // sending (a lingering close). The body's reader, if any, lets go of it in this same turn.
  setImmediate(() => dropRestOfBody(req, () => res.end()))
}

function page(locale: Locale, refusal: Refusal, requestId: string) {
  const t = texts(locale)
  const limit = refusal.limit
  const [title, message] =
    refusal.status === 413 && limit
      ? [
          t.http.tooLarge.title,
          fill(limit.file ? t.http.tooLarge.file : t.http.tooLarge.form, { limit: size(limit.bytes, t) }),
        ]
      : refusal.status === 500
        ? [t.common.errors.serverError, t.common.errors.fallback]
        : refusal.status === 405 || refusal.status === 501 || refusal.status === 505
          ? [t.http.notImplemented.title, t.http.notImplemented.body]
          : [t.http.badRequest.title, t.http.badRequest.body]
  const reference = fill(t.http.reference, { requestId })
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)} – Workneer</title></head><body style="font-family:system-ui,sans-serif;color:#1b2430;max-width:560px;margin:48px auto;padding:0 24px"><h1>${escape(title)}</h1><p>${escape(message)}</p><p><a href="/">${escape(t.common.nav.home)}</a></p><p style="font-size:13px;color:#555">${escape(reference)}</p></body></html>`
}
