import fs from 'node:fs'
import { createHash } from 'node:crypto'
import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import Busboy from '@fastify/busboy'
import { ApiError, BodyCutShort, bodyCutShortError } from '#server/api/errors.ts'
import type { FileStorage } from './storage.ts'
import {
  attachmentTypeForMime,
  checkUpload,
  problemForKind,
  problems,
  type UploadKind,
  type UploadProblem,
} from './rules.ts'
import { sniff } from './sniff.ts'
import { withinImageLimits } from './image-dimensions.ts'
import { stripMetadata } from './strip-metadata.ts'
import type { Executor } from './lifecycle.ts'
import { toStoredFile, type StoredFile } from './stored-file.ts'

// Reading a multipart form: its text fields and its files, each checked by name, by size while it
// streams (an oversized upload is cut off at the limit, never held in memory or on disk) and by
// its bytes. Nothing is stored until the caller `store`s the files in its own transaction.

const HEAD_BYTES = 4100 // what file-type needs to recognise a format

export interface FormOptions {
  /** The part that carries the files. */
  field: string
  maxFiles: number
  /** The kind and size limit a file's name picks, or why it is refused. */
  rule: (fileName: string) => { kind: UploadKind; limitKb: number } | UploadProblem
  fieldSizeBytes?: number
}

type Temporary = ReturnType<FileStorage['temporary']>
interface Received {
  name: string
  size: number
  head: Buffer
  bytes?: Buffer
  kind: UploadKind
  limitKb: number
  temp: Temporary
}
type Checked = Received & { sniffed: NonNullable<Awaited<ReturnType<typeof sniff>>> }

/** A body that is not the multipart it claims (no boundary, cut off before its closing boundary) is the sender's error. */
function malformed(field: string) {
  const message = 'The upload is incomplete or not valid multipart/form-data'
  const error = new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })
  error.headers = { connection: 'close' }
  return error
}

function uploadError(problem: UploadProblem, field: string) {
  const error = new ApiError(400, problem.title, problem.message, { [field]: [problem.message] })
  // The rest of the body is not read: closing the connection stops the client sending it.
  error.headers = { connection: 'close' }
  return error
}

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

/** The temporary files of one form, removed together when the form is discarded. */
function temporaries(storage: FileStorage) {
  const temps: Temporary[] = []
  let discarded = false
  return {
    create() {
      const temp = storage.temporary()
      temps.push(temp)
      return temp
    },
    // A part's temporary file is opened while its bytes arrive. When the sender goes away during
    // that, the form is discarded before the file exists: it is removed as soon as it is opened,
    // or it would stay behind for good (nothing sweeps temporary files).
    open(temp: Temporary) {
      const file = fs.createWriteStream(temp.path)
      file.on('open', () => void (discarded && temp.remove()))
      // Its write errors come back through fanOut's callbacks; the event alone must not stop the process.
      file.on('error', () => {})
      return file
    },
    discard() {
      discarded = true
      return Promise.all(temps.map((t) => t.remove())).then(() => undefined)
    },
  }
}
type Temporaries = ReturnType<typeof temporaries>

/** Refuses a request that is not multipart, or announces more bytes than its files may have; answers the largest limit. */
function checkRequest(request: Request, options: FormOptions) {
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
  return { contentType, largest }
}

/**
 * Streams one file part into a temporary file (an image into memory too, to strip its metadata),
 * keeping its first bytes for the sniff; answers null when its name is refused (`fail` was told).
 */
function receiveFile(
  stream: Readable,
  fileName: string,
  form: { options: FormOptions; temps: Temporaries; fail: (error: unknown) => void },
): Promise<Received> | null {
  const { field } = form.options
  const rule = form.options.rule(fileName)
  if (!('kind' in rule)) {
    form.fail(uploadError(rule, field))
    return null
  }
  const problem = checkUpload(rule.kind, fileName, undefined, rule.limitKb)
  if (problem) {
    form.fail(uploadError(problem, field))
    return null
  }
  const limit = rule.limitKb * 1024
  const temp = form.temps.create()
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
  stream.on('limit', () => form.fail(uploadError(problems.fileSize(rule.limitKb), field)))
  return pipeline(stream, inMemory ? sink : fanOut(sink, form.temps.open(temp))).then(() => {
    const all = Buffer.concat(chunks)
    const bytes = inMemory ? all : undefined
    return {
      name: fileName,
      size,
      head: all.subarray(0, HEAD_BYTES),
      bytes,
      kind: rule.kind,
      limitKb: rule.limitKb,
      temp,
    }
  })
}

/** Parses the body: the text fields, and each file of the part `field` received as it streams. */
function parseParts(
  source: Readable,
  contentType: string,
  largest: number,
  options: FormOptions,
  temps: Temporaries,
) {
  const { field } = options
  return new Promise<{ fields: Record<string, string>; received: Received[] }>((resolve, reject) => {
    const limits = {
      fileSize: largest * 1024,
      files: options.maxFiles + 1,
      fields: 20,
      fieldSize: options.fieldSizeBytes ?? 8 * 1024,
    }
    let bb: ReturnType<typeof Busboy>
    try {
      bb = Busboy({ headers: { 'content-type': contentType }, limits })
    } catch {
      // No boundary in the Content-Type.
      source.destroy()
      return reject(malformed(field))
    }
    const fields: Record<string, string> = {}
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
      const result = receiveFile(stream, fileName ?? '', { options, temps, fail })
      if (!result) return
      // A file part cut off mid-way fails here and in the parser; the parser's error answers
      // (fail), so this one must not go unhandled.
      result.catch(fail)
      results.push(result)
    })
    bb.on('error', fail)
    bb.on('finish', () => Promise.all(results).then((received) => resolve({ fields, received }), reject))
    source.on('error', fail)
    source.pipe(bb)
  })
}

/** Checks each received file's size and bytes against its kind; an image is written back without its metadata. */
async function checkFiles(received: Received[], field: string) {
  const checked: Checked[] = []
  for (const r of received) {
    if (r.size > r.limitKb * 1024) throw uploadError(problems.fileSize(r.limitKb), field)
    const sniffed = await sniff(r.name, r.head, r.kind)
    if (!sniffed || r.size === 0) throw uploadError(problemForKind(r.kind), field)
    // Pictures (read whole, in memory) are shown as they are: their pixel count is bounded too.
    if (r.bytes && !(await withinImageLimits(sniffed.type, r.bytes)))
      throw uploadError(problems.imageDimensions(), field)
    if (r.bytes) await fs.promises.writeFile(r.temp.path, stripMetadata(sniffed.type, r.bytes))
    checked.push({ ...r, sniffed })
  }
  return checked
}

/** Keeps the checked files' bytes and writes their rows with `executor` (the caller's transaction). */
async function storeFiles(
  executor: Executor,
  storage: FileStorage,
  checked: Checked[],
  owner: { purpose: string; ownerId: number | null },
) {
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
}

/**
 * Reads a multipart form: its text fields and up to `maxFiles` files of the part `field`, each
 * checked by the rule its name picks. The caller checks the fields, then `store`s the files in its
 * own transaction (bytes whose transaction rolls back are swept as orphans), and always `discard`s
 * what is left.
 */
export async function receiveForm(storage: FileStorage, request: Request, options: FormOptions) {
  const { contentType, largest } = checkRequest(request, options)
  const source = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream)
  const temps = temporaries(storage)
  try {
    const { fields, received } = await parseParts(source, contentType, largest, options, temps)
    const checked = await checkFiles(received, options.field)
    return {
      fields,
      files: checked.map((c) => ({ name: c.name, size: c.size, mime: c.sniffed.mime })),
      discard: temps.discard,
      /** The checked files' bytes (a picture's without its metadata), for a module that keeps them itself (verification's documents are kept encrypted). */
      bytes: () => Promise.all(checked.map((c) => fs.promises.readFile(c.temp.path))),
      store: (executor: Executor, owner: { purpose: string; ownerId: number | null }) =>
        storeFiles(executor, storage, checked, owner),
    }
  } catch (error) {
    await temps.discard()
    throw error
  }
}

export type ReceivedForm = Awaited<ReturnType<typeof receiveForm>>
