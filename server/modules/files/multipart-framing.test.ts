import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestDatabase } from '../../../tests/integration/databases.ts'
import { createFileService, type FileService } from './service.ts'
import { createFolderStorage } from './storage.ts'

// A multipart body that is not what it claims is the sender's mistake: 400, never 500. The framing
// is read before any row is written, so one database is enough (SQLite).

const boundary = 'framing-test'
const partHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="plan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`
const pdf = '%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'

function request(contentType: string, pieces: Array<string | Error>) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) {
        if (piece instanceof Error) return controller.error(piece)
        controller.enqueue(new TextEncoder().encode(piece))
      }
      controller.close()
    },
  })
  return new Request('http://test/upload', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
    duplex: 'half',
  } as RequestInit)
}

const withBoundary = `multipart/form-data; boundary=${boundary}`
const cases: Array<[string, string, Array<string | Error>]> = [
  ['no boundary', 'multipart/form-data', [partHead, pdf]],
  ['an empty boundary', 'multipart/form-data; boundary=', [partHead, pdf]],
  ['a body cut off inside the file', withBoundary, [partHead, pdf.slice(0, 20)]],
  ['a body cut off inside the part headers', withBoundary, [partHead.slice(0, 40)]],
  ['a body cut off before the closing boundary', withBoundary, [partHead, pdf, `\r\n--${boundary}`]],
  ['a body whose sender went away', withBoundary, [partHead, pdf.slice(0, 20), new Error('aborted')]],
]

describe('multipart framing', () => {
  let files: FileService
  let root: string
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }))
  const s = useTestDatabase('sqlite')
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-framing-'))
    files = createFileService({ db: s.database.db, storage: createFolderStorage(root) })
  })

  // Documents stream to a temporary file, images are held in memory: both paths.
  for (const kind of ['document', 'image'] as const) {
    it.each(cases)(`${kind}: %s is a 400 that names the field`, async (_name, contentType, pieces) => {
      const error = await files
        .receive(
          request(
            contentType,
            pieces.map((p) =>
              typeof p === 'string' && kind === 'image' ? p.replace('plan.pdf', 'plan.png') : p,
            ),
          ),
          { kind, purpose: 'test', ownerId: null },
        )
        .then(
          () => null,
          (e: unknown) => e,
        )
      expect(error).toMatchObject({ status: 400, title: 'Invalid Info' })
      expect(Object.keys((error as { errors: object }).errors)).toEqual(['file'])
    })
  }

  // The sender goes away as a document starts, while its temporary file may still be being opened:
  // a removal before the file exists would leave it behind for good (seen once on a loaded
  // machine). The moment varies; without the fix about one try in 300 left a file.
  it('a sender who goes away as a document starts leaves no temporary file, whenever the body stops', async () => {
    const later: Array<(stop: () => void) => void> = [
      queueMicrotask,
      setImmediate,
      (stop) => setTimeout(stop, 0),
    ]
    for (let i = 0; i < 900; i++) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(`${partHead}%PDF-1.4 abc`))
          later[i % later.length](() => controller.error(new Error('aborted')))
        },
      })
      const upload = new Request('http://test/upload', {
        method: 'POST',
        headers: { 'content-type': withBoundary },
        body,
        duplex: 'half',
      } as RequestInit)
      const answer = await files.receive(upload, { kind: 'document', purpose: 'test', ownerId: null }).then(
        () => null,
        (error: unknown) => error,
      )
      expect(answer, `try ${i}`).toMatchObject({ status: 400 })
    }
    // A file opened after the answer goes as it opens: none is left once the opens have run.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([])
  })

  it('leaves no temporary file and no row behind', async () => {
    expect(await s.database.db.selectFrom('stored_file').select('id').execute()).toEqual([])
    const leftovers = fs
      .readdirSync(root, { recursive: true })
      .filter((f) => fs.statSync(path.join(root, String(f))).isFile())
    expect(leftovers).toEqual([])
  })

  it('a well-formed body still stores its file', async () => {
    const stored = await files.receive(request(withBoundary, [partHead, pdf, `\r\n--${boundary}--\r\n`]), {
      kind: 'document',
      purpose: 'test',
      ownerId: null,
    })
    expect(stored).toMatchObject({ originalName: 'plan.pdf', mime: 'application/pdf' })
  })
})
