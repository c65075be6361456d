import { Readable } from 'node:stream'
import type { Caller } from '#server/api/handler.ts'
import { ApiError } from '#server/api/errors.ts'
import type { FileStorage } from './storage.ts'
import { notDisplayable } from './rules.ts'
import type { StoredFile } from './stored-file.ts'

// Who may read a file, and the download of docs/product.md §7 (`files/{id}/download`) as an HTTP response.

/** Decides whether a caller may read a file of one purpose; modules register theirs. */
export type ReadPolicy = (file: StoredFile, caller: Caller | null) => Promise<boolean> | boolean

/** The owner reads their files; anyone else as the file's purpose says (nobody, for a purpose without a policy). */
export async function canRead(
  policies: ReadonlyMap<string, ReadPolicy>,
  file: StoredFile,
  caller: Caller | null,
) {
  if (caller && file.ownerId === caller.userId) return true
  const policy = policies.get(file.purpose)
  return policy ? await policy(file, caller) : false
}

const asciiName = (name: string) => name.replace(/[^\x20-\x7e]|["\\]/g, '_')

/** A readable file's bytes with caching and disposition headers; an image the browser cannot show, and every other file but a PDF, downloads. */
export async function downloadResponse(
  deps: { storage: FileStorage; policies: ReadonlyMap<string, ReadPolicy> },
  file: StoredFile | null,
  caller: Caller | null,
  request: Request,
): Promise<Response> {
  const readable = file && (await canRead(deps.policies, file, caller))
  if (!file || !readable) {
    if (file && !caller) throw new ApiError(401, 'Unauthorized', 'Sign in to open this file')
    throw new ApiError(404, 'Not Found', 'File was not found')
  }
  const isPublic = await (deps.policies.get(file.purpose)?.(file, null) ?? false)
  const etag = `"${file.sha256}"`
  const headers = new Headers({
    etag,
    'cache-control': isPublic ? 'public, max-age=86400' : 'private, max-age=300',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  })
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
  const inline =
    file.mime.startsWith('image/') &&
    !(notDisplayable as readonly string[]).includes(file.type === 'tif' ? 'tiff' : file.type)
  headers.set('content-type', file.mime)
  headers.set('content-length', String(file.size))
  headers.set(
    'content-disposition',
    `${inline || file.mime === 'application/pdf' ? 'inline' : 'attachment'}; filename="${asciiName(file.originalName)}"; filename*=UTF-8''${encodeURIComponent(file.originalName)}`,
  )
  return new Response(Readable.toWeb(deps.storage.read(file.storageKey)) as ReadableStream, { headers })
}
