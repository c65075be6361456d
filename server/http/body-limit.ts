import type { IncomingMessage } from 'node:http'
import { DEFAULT_MAX_FILE_KB } from '../modules/files/rules.ts'
import { limits as projectLimits } from '../modules/projects/rules.ts'
import { MAX_JSON_BYTES } from '../api/handler.ts'
import { DOCUMENT_MAX_KB } from '../modules/verification/choices.ts'
import type { Destination } from './destination.ts'

// How much of a request body each kind of request may send (decision 081). The limit is decided
// from the path and the Content-Type before a byte of the body is read: a declared length past it
// is refused at once, and the bytes are counted as they are read (server/http/request-body.ts).

const KB = 1024
/** Page forms that carry no file (urlencoded or text): a form of this site is a few kilobytes. */
export const FORM_LIMIT = 64 * KB
/** Around the file of a multipart body: boundaries, part headers and the form's other fields. */
export const MULTIPART_ENVELOPE = 64 * KB

// Page routes whose forms carry a file, and the largest file each accepts: profile pictures,
// portfolio files and rate sheets keep docs/product.md §5's default; project documents their own limit.
const pageUploads: [RegExp, number][] = [
  [/^\/profile\/?$/, DEFAULT_MAX_FILE_KB],
  [
    /^\/projects\/(create|client\/edit\/\d+|client\/details\/\d+|details\/\d+|freelancer\/contract\/\d+)\/?$/,
    projectLimits.documentKb,
  ],
  // An identity document for verification (decision 332).
  [/^\/profile\/verification\/?$/, DOCUMENT_MAX_KB],
]
// API endpoints taking multipart: project files have the documents' limit, every other upload
// (profile images, portfolio files, rate sheets) docs/product.md §5's default. The files module then checks
// the exact limit of the endpoint's kind while the file streams.
const apiUploads: [RegExp, number][] = [
  [/^\/api\/v1\/projects\/\d+\/uploadprojectfiles\/?$/i, projectLimits.documentKb],
  [/^\/api\/v1\/verification\/?$/i, DOCUMENT_MAX_KB],
]

export type BodyKind = 'form' | 'json' | 'upload'
export interface BodyLimit {
  kind: BodyKind
  bytes: number
  /** Uploads: the largest file, which is what a person is told (the envelope is ours). */
  fileBytes?: number
}

/** The limit of one request's body, or null for hub traffic, which streams records as they arrive. */
export function bodyLimit(destination: Destination, path: string, contentType: string): BodyLimit | null {
  if (destination === 'hub') return null
  const multipart = /^multipart\/form-data\b/i.test(contentType.trim())
  if (destination === 'api') {
    if (!multipart) return { kind: 'json', bytes: MAX_JSON_BYTES }
    return upload(apiUploads.find(([p]) => p.test(path))?.[1] ?? DEFAULT_MAX_FILE_KB)
  }
  const uploadKb =
    destination === 'pages' && multipart ? pageUploads.find(([p]) => p.test(routePath(path)))?.[1] : undefined
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

/** The declared length is already too much: answer before reading anything. */
export function declaredTooLarge(req: IncomingMessage, bytes: number) {
  const declared = Number(req.headers['content-length'] ?? 0)
  return Number.isFinite(declared) && declared > bytes
}
