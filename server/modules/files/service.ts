import fs from 'node:fs'
import { createHash } from 'node:crypto'
import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import Busboy from '@fastify/busboy'
import type { DB } from '../../db/database.ts'
import type { Caller } from '../../api/handler.ts'
import { ApiError, BodyCutShort, bodyCutShortError } from '../../api/errors.ts'
import type { FileStorage } from './storage.ts'
import {
  attachmentTypeForMime,
  checkUpload,
  DEFAULT_MAX_FILE_KB,
  notDisplayable,
  problemForKind,
  problems,
  type UploadKind,
  type UploadProblem,
} from './rules.ts'
import { sniff } from './sniff.ts'
import { stripMetadata } from './strip-metadata.ts'
import { ORPHAN_AGE_MS, releaseFiles, type Executor } from './lifecycle.ts'

/** Decides whether a caller may read a file of one purpose; modules register theirs. */
export type ReadPolicy = (file: StoredFile, caller: Caller | null) => Promise<boolean> | boolean
/** Of these file ids (all of one purpose), the ones a row of the module that registered it still points at. */
export type References = (executor: Executor, ids: number[]) => Promise<Iterable<number>>
export interface StoredFile {
  id: number
  ownerId: number | null
  purpose: string
  originalName: string
  mime: string
  type: string
  attachmentType: number
  size: number
  sha256: string
  storageKey: string
  createdAt: string
}

const HEAD_BYTES = 4100 // what file-type needs to recognise a format

interface Received {
  name: string
  size: number
  head: Buffer
  bytes?: Buffer
  kind: UploadKind
  limitKb: number
  temp: ReturnType<FileStorage['temporary']>
}
type Checked = Received & { sniffed: NonNullable<Awaited<ReturnType<typeof sniff>>> }

/** Writes what reaches `first` (which counts and may refuse) on to `second`. */
function fanOut(first: Writable, second: Writable) {
  return new Writable({
    write(c: Buffer, enc, done) {
      first.write(c, enc, (error) => (error ? done(error) : second.write(c, enc, done)))
    },
    final(done) {
      second.end(done)
    },
    destroy(error, done) {
      // Stopped without an error of its own: the caller already has the reason.
      second.destroy()
      done(error)
    },
  })
}

/** A body that is not the multipart it claims (no boundary, cut off before its closing boundary) is the sender's error. */
function malformed(field: string) {
  const message = 'The upload is incomplete or not valid multipart/form-data'
  const error = new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })
  error.headers = { connection: 'close' }
  return error
}

function uploadError(problem: UploadProblem, field = 'file') {
  const error = new ApiError(400, problem.title, problem.message, { [field]: [problem.message] })
  // The rest of the body is not read: closing the connection stops the client sending it.
  error.headers = { connection: 'close' }
  return error
}

export function createFileService({ db, storage }: { db: DB; storage: FileStorage }) {
  const policies = new Map<string, ReadPolicy>([
    ['profile-image', () => true],
    ['portfolio', () => true],
  ])
  const references = new Map<string, References>()

  /**
   * Releases file rows older than `olderThanMs` that nothing points at any more (an upload whose
   * owner row was never written, a reference a module cleared without releasing): only of purposes
   * whose module said how to find their references, so a file of any other purpose is never taken.
   * Each batch is checked again inside the transaction that releases it.
   */
  async function releaseUnreferenced({ olderThanMs = ORPHAN_AGE_MS, now = Date.now() } = {}) {
    const before = new Date(now - olderThanMs).toISOString()
    let released = 0
    for (const [purpose, referenced] of references) {
      const unreferenced = async (executor: Executor, of: number[]) => {
        const kept = new Set(await referenced(executor, of))
        return of.filter((id) => !kept.has(id))
      }
      let after = 0
      for (;;) {
        const ids = (
          await db
            .selectFrom('stored_file')
            .select('id')
            .where('purpose', '=', purpose)
            .where('created_at', '<', before)
            .where('id', '>', after)
            .orderBy('id')
            .limit(500)
            .execute()
        ).map((r) => r.id)
        if (!ids.length) break
        after = ids.at(-1)!
        const candidates = await unreferenced(db, ids)
        if (candidates.length)
          released += await db
            .transaction()
            .execute(async (trx) => releaseFiles(trx, await unreferenced(trx, candidates)))
      }
    }
    return released
  }

  /**
   * Reads one file from a multipart request, checking its name, its size while it streams (an
   * oversized upload is cut off at the limit, never held in memory or on disk) and its bytes.
   */
  async function receive(
    request: Request,
    options: { kind: UploadKind; purpose: string; ownerId: number | null; limitKb?: number; field?: string },
  ): Promise<StoredFile> {
    const field = options.field ?? 'file'
    const form = await receiveForm(request, {
      field,
      maxFiles: 1,
      rule: () => ({ kind: options.kind, limitKb: options.limitKb ?? DEFAULT_MAX_FILE_KB }),
    })
    try {
      if (!form.files.length)
        throw new ApiError(
          400,
          'Invalid Info',
          `${field}: Choose a file to upload`,
          { [field]: ['Choose a file to upload'] },
          'file_missing',
        )
      const [stored] = await form.store(db, { purpose: options.purpose, ownerId: options.ownerId })
      return stored
    } finally {
      await form.discard()
    }
  }

  /**
   * Reads a multipart form: its text fields and up to `maxFiles` files of the part `field`, each
   * checked by the rule its name picks (kind and size limit) as in `receive`. Nothing is stored
   * yet: the caller checks the fields, then `store`s the files in its own transaction (their rows
   * are written there; bytes whose transaction rolls back are swept as orphans), and always
   * `discard`s what is left.
   */
  async function receiveForm(
    request: Request,
    options: {
      field: string
      maxFiles: number
      rule: (fileName: string) => { kind: UploadKind; limitKb: number } | UploadProblem
      fieldSizeBytes?: number
    },
  ) {
    const { field } = options
    const contentType = request.headers.get('content-type') ?? ''
    if (!/^multipart\/form-data/i.test(contentType) || !request.body) {
      throw new ApiError(400, 'Invalid Info', `${field}: Send the file as multipart/form-data`, {
        [field]: ['Send the file as multipart/form-data'],
      })
    }
    const largest = Math.max(
      ...[options.rule('x.png'), options.rule('x.pdf'), options.rule('x.mp4')].map((r) =>
        'limitKb' in r ? r.limitKb : 0,
      ),
    )
    if (Number(request.headers.get('content-length') ?? 0) > options.maxFiles * largest * 1024 + 64 * 1024)
      throw uploadError(problems.fileSize(largest), field)

    const source = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream)
    const temps: ReturnType<FileStorage['temporary']>[] = []
    let discarded = false
    const discard = () => {
      discarded = true
      return Promise.all(temps.map((t) => t.remove())).then(() => undefined)
    }
    // A part's temporary file is opened while its bytes arrive. When the sender goes away during
    // that, the form is discarded before the file exists: it is removed as soon as it is opened,
    // or it would stay behind for good (nothing sweeps temporary files).
    const temporaryFile = (temp: ReturnType<FileStorage['temporary']>) => {
      const file = fs.createWriteStream(temp.path)
      file.on('open', () => void (discarded && temp.remove()))
      // Its write errors come back through fanOut's callbacks; the event alone must not stop the process.
      file.on('error', () => {})
      return file
    }
    try {
      const fields: Record<string, string> = {}
      const received = await new Promise<Received[]>((resolve, reject) => {
        let bb: ReturnType<typeof Busboy>
        try {
          bb = Busboy({
            headers: { 'content-type': contentType },
            limits: {
              fileSize: largest * 1024,
              files: options.maxFiles + 1,
              fields: 20,
              fieldSize: options.fieldSizeBytes ?? 8 * 1024,
            },
          })
        } catch {
          // No boundary in the Content-Type.
          source.destroy()
          return reject(malformed(field))
        }
        const results: Promise<Received>[] = []
        const fail = (error: unknown) => {
          source.unpipe(bb)
          source.destroy()
          // The parser's own errors (a truncated body, a broken part) and a body that stopped
          // arriving are the sender's; our checks already speak for themselves.
          reject(
            error instanceof ApiError
              ? error
              : error instanceof BodyCutShort
                ? bodyCutShortError(field, error)
                : malformed(field),
          )
        }
        bb.on('field', (name, value) => void (fields[name] = value))
        bb.on('file', (name, stream, fileName) => {
          if (name !== field) return void stream.resume()
          // One file wanted: any further part is ignored, as a form's stray second file always was.
          if (results.length === options.maxFiles && options.maxFiles === 1) return void stream.resume()
          if (results.length === options.maxFiles)
            return fail(
              new ApiError(400, 'Invalid Info', `${field}: At most ${options.maxFiles} files`, {
                [field]: [`At most ${options.maxFiles} files`],
              }),
            )
          const rule = options.rule(fileName ?? '')
          if (!('kind' in rule)) return fail(uploadError(rule, field))
          const problem = checkUpload(rule.kind, fileName ?? '', undefined, rule.limitKb)
          if (problem) return fail(uploadError(problem, field))
          const limit = rule.limitKb * 1024
          const temp = storage.temporary()
          temps.push(temp)
          const chunks: Buffer[] = []
          let size = 0
          let head = 0
          // Images are small (the limit bounds them) and get their metadata stripped in memory;
          // other files stream straight to a temporary file.
          const inMemory = rule.kind === 'image'
          const sink = new Writable({
            write(c: Buffer, _enc, done) {
              size += c.length
              if (size > limit) return done(uploadError(problems.fileSize(rule.limitKb), field))
              if (inMemory || head < HEAD_BYTES) {
                chunks.push(c)
                head += c.length
              }
              done()
            },
          })
          stream.on('limit', () => fail(uploadError(problems.fileSize(rule.limitKb), field)))
          const result = pipeline(stream, inMemory ? sink : fanOut(sink, temporaryFile(temp))).then(() => {
            const all = Buffer.concat(chunks)
            return {
              name: fileName ?? '',
              size,
              head: all.subarray(0, HEAD_BYTES),
              bytes: inMemory ? all : undefined,
              kind: rule.kind,
              limitKb: rule.limitKb,
              temp,
            }
          })
          // A file part cut off mid-way fails here and in the parser; the parser's error answers
          // (fail), so this one must not go unhandled.
          result.catch(fail)
          results.push(result)
        })
        bb.on('error', fail)
        bb.on('finish', () => Promise.all(results).then(resolve, reject))
        source.on('error', fail)
        source.pipe(bb)
      })
      const checked: Checked[] = []
      for (const r of received) {
        if (r.size > r.limitKb * 1024) throw uploadError(problems.fileSize(r.limitKb), field)
        const sniffed = await sniff(r.name, r.head, r.kind)
        if (!sniffed || r.size === 0) throw uploadError(problemForKind(r.kind), field)
        if (r.bytes) await fs.promises.writeFile(r.temp.path, stripMetadata(sniffed.type, r.bytes))
        checked.push({ ...r, sniffed })
      }
      return {
        fields,
        files: checked.map((c) => ({ name: c.name, size: c.size, mime: c.sniffed.mime })),
        discard,
        /** Keeps the checked files' bytes and writes their rows with `executor` (the caller's transaction). */
        async store(executor: Executor, owner: { purpose: string; ownerId: number | null }) {
          const out: StoredFile[] = []
          for (const c of checked) {
            const stat = await fs.promises.stat(c.temp.path)
            const sha256 = createHash('sha256')
              .update(await fs.promises.readFile(c.temp.path))
              .digest('hex')
            const storageKey = await storage.keep(c.temp.path)
            const row = await executor
              .insertInto('stored_file')
              .values({
                owner_id: owner.ownerId,
                purpose: owner.purpose,
                original_name: c.name.slice(0, 255),
                mime: c.sniffed.mime,
                type: c.sniffed.type,
                attachment_type: attachmentTypeForMime(c.sniffed.mime),
                size: stat.size,
                sha256,
                storage_key: storageKey,
                created_at: new Date().toISOString(),
              })
              .returningAll()
              .executeTakeFirstOrThrow()
            out.push(toStoredFile(row))
          }
          return out
        },
      }
    } catch (error) {
      await discard()
      throw error
    }
  }

  async function find(id: number) {
    const row = await db.selectFrom('stored_file').selectAll().where('id', '=', id).executeTakeFirst()
    return row ? toStoredFile(row) : null
  }

  async function canRead(file: StoredFile, caller: Caller | null) {
    if (caller && file.ownerId === caller.userId) return true
    const policy = policies.get(file.purpose)
    return policy ? await policy(file, caller) : false
  }

  /** The download of SPEC §7 (`files/{id}/download`) as an HTTP response, with caching and disposition. */
  async function download(id: number, caller: Caller | null, request: Request): Promise<Response> {
    const file = await find(id)
    const readable = file && (await canRead(file, caller))
    if (!file || !readable) {
      if (file && !caller) throw new ApiError(401, 'Unauthorized', 'Sign in to open this file')
      throw new ApiError(404, 'Not Found', 'File was not found')
    }
    const isPublic = await (policies.get(file.purpose)?.(file, null) ?? false)
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
    return new Response(Readable.toWeb(storage.read(file.storageKey)) as ReadableStream, { headers })
  }

  return {
    receive,
    receiveForm,
    find,
    canRead,
    download,
    /** Lets a module say who may read the files it attaches (e.g. a project's participants). */
    setReadPolicy: (purpose: string, policy: ReadPolicy) => void policies.set(purpose, policy),
    /** Lets a module say which of its files are still pointed at, so the sweep may release the others. */
    setReferences: (purpose: string, find: References) => void references.set(purpose, find),
    releaseUnreferenced,
    downloadUrl: (id: number) => `files/${id}/download`,
    /** Deletes file rows in the caller's transaction; their bytes go once it commits (lifecycle.ts). */
    release: releaseFiles,
    storage,
  }
}

const asciiName = (name: string) => name.replace(/[^\x20-\x7e]|["\\]/g, '_')

function toStoredFile(r: {
  id: number
  owner_id: number | null
  purpose: string
  original_name: string
  mime: string
  type: string
  attachment_type: number
  size: number
  sha256: string
  storage_key: string
  created_at: string
}): StoredFile {
  return {
    id: r.id,
    ownerId: r.owner_id,
    purpose: r.purpose,
    originalName: r.original_name,
    mime: r.mime,
    type: r.type,
    attachmentType: r.attachment_type,
    size: r.size,
    sha256: r.sha256,
    storageKey: r.storage_key,
    createdAt: r.created_at,
  }
}

export type FileService = ReturnType<typeof createFileService>
