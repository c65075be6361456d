import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { DEFAULT_MAX_FILE_KB } from '../modules/files/rules.ts'
import { limits as projectLimits } from '../modules/projects/rules.ts'
import { MAX_JSON_BYTES } from '../api/handler.ts'

// How much of a request body each door reads (decision 081). The limit is decided from the path
// and the Content-Type before a byte of the body is read, and enforced on the bytes as they come
// off the socket, so a body without Content-Length (chunked) is stopped at the same point.

const KB = 1024
/** Page forms that carry no file (urlencoded or text): a form of this site is a few kilobytes. */
export const FORM_LIMIT = 64 * KB
/** Around the file of a multipart body: boundaries, part headers and the form's other fields. */
export const MULTIPART_ENVELOPE = 64 * KB

// Page routes whose forms carry a file, and the largest file each accepts: profile pictures,
// portfolio files and rate sheets keep SPEC §5's default; project documents their own limit.
const pageUploads: [RegExp, number][] = [
  [/^\/profile\/?$/, DEFAULT_MAX_FILE_KB],
  [
    /^\/projects\/(create|client\/edit\/\d+|client\/details\/\d+|details\/\d+|freelancer\/contract\/\d+)\/?$/,
    projectLimits.documentKb,
  ],
]
// API endpoints taking multipart: project files have the documents' limit, every other upload
// (profile images, portfolio files, rate sheets) SPEC §5's default. The files module then checks
// the exact limit of the endpoint's kind while the file streams.
const apiUploads: [RegExp, number][] = [
  [/^\/api\/v1\/projects\/\d+\/uploadprojectfiles\/?$/i, projectLimits.documentKb],
]

export type BodyKind = 'form' | 'json' | 'upload'
export interface BodyLimit {
  kind: BodyKind
  bytes: number
  /** Uploads: the largest file, which is what a person is told (the envelope is ours). */
  fileBytes?: number
}

/** The limit of one request's body, or null for hub traffic, which streams records as they arrive. */
export function bodyLimit(
  door: 'health' | 'hub' | 'hub-negotiate' | 'api' | 'pages',
  path: string,
  contentType: string,
): BodyLimit | null {
  if (door === 'hub') return null
  const multipart = /^multipart\/form-data\b/i.test(contentType.trim())
  if (door === 'api') {
    if (!multipart) return { kind: 'json', bytes: MAX_JSON_BYTES }
    return upload(apiUploads.find(([p]) => p.test(path))?.[1] ?? DEFAULT_MAX_FILE_KB)
  }
  const uploadKb =
    door === 'pages' && multipart ? pageUploads.find(([p]) => p.test(routePath(path)))?.[1] : undefined
  return uploadKb ? upload(uploadKb) : { kind: 'form', bytes: FORM_LIMIT }
}

/**
 * The page route a path names. A hydrated page submits its forms to the same path with React
 * Router's `.data` suffix (`/projects/details/7.data`, `/_root.data` for `/`): the route, and so
 * its limit, is the same as without JavaScript.
 */
export function routePath(path: string) {
  const bare = path.split('?', 1)[0]
  if (bare === '/_root.data') return '/'
  return bare.endsWith('.data') ? bare.slice(0, -'.data'.length) : bare
}

const upload = (kb: number): BodyLimit => ({
  kind: 'upload',
  bytes: kb * KB + MULTIPART_ENVELOPE,
  fileBytes: kb * KB,
})

/**
 * Counts the body's bytes where Node's HTTP parser hands them to the request stream, so every
 * reader (React Router's form parsing, the API's JSON, a multipart parser) is covered, however and
 * whenever it reads. Past `bytes`, `exceeded` is called once and nothing more reaches the readers:
 * the caller answers 413 and closes the connection, which ends the readers' wait.
 */
export function countBody(req: IncomingMessage, bytes: number, exceeded: () => void) {
  let seen = 0
  let over = false
  const push = req.push.bind(req)
  req.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
    if (chunk !== null && !over) {
      seen += chunk.length
      if (seen > bytes) {
        over = true
        exceeded()
      }
    }
    return over ? true : push(chunk, encoding)
  }
}

// After a refusal, how long and how much of the rest is read (and dropped) before the connection
// is cut: see lingerThenClose.
export const LINGER_MS = 2000
const LINGER_BYTES = 16 * 1024 * KB

/**
 * Ends the connection of a request refused before its body was read, without losing the answer.
 * Cutting it at once, while the client is still sending, makes the kernel answer the unread bytes
 * with a reset, and a client that gets the reset before it reads loses our answer (RFC 9112 §9.6,
 * decision 081). So, as web servers do (a lingering close),
 * the answer goes out with Connection: close and the end of our side, and what the client still
 * sends is dropped unread for at most LINGER_MS or LINGER_BYTES, or until the client stops.
 */
export function lingerThenClose(req: IncomingMessage, res: ServerResponse) {
  if (req.complete) return
  const socket = req.socket
  let dropped = 0
  req.push = (chunk: Buffer | null) => {
    if (chunk !== null && (dropped += chunk.length) > LINGER_BYTES) socket.destroy()
    return true
  }
  // A body whose reader had paused the socket must flow again to be dropped.
  req.resume()
  if (res.writableFinished) linger(socket)
  else res.once('finish', () => linger(socket))
}

/** Our side is done: end it, drop what still comes, and cut the connection when the client stops or the time is up. */
export function linger(socket: Duplex) {
  // With Connection: close Node has ended the socket and would destroy it the moment its FIN is out.
  socket.removeListener('finish', socket.destroy)
  if (!socket.writableEnded) socket.end()
  const cut = () => socket.destroy()
  const timer = setTimeout(cut, LINGER_MS)
  timer.unref()
  socket.once('end', cut)
  socket.once('close', () => clearTimeout(timer))
}

/** The declared length is already too much: answer before reading anything. */
export function declaredTooLarge(req: IncomingMessage, bytes: number) {
  const declared = Number(req.headers['content-length'] ?? 0)
  return Number.isFinite(declared) && declared > bytes
}
