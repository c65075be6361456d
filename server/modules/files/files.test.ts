import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { portableDialects, useTestDatabase } from '../../../tests/integration/databases.ts'
import { attachmentTypeOf, checkUpload } from './rules.ts'
import { stripMetadata } from './strip-metadata.ts'
import { createFileService, type FileService } from './service.ts'
import { createFolderStorage } from './storage.ts'

// Minimal real files, byte by byte: enough for the format checks and metadata stripping.
const png = Buffer.concat([
  Buffer.from('89504e470d0a1a0a', 'hex'),
  chunk('IHDR', Buffer.from('0000000100000001080600000000', 'hex').subarray(0, 13)),
  chunk('tEXt', Buffer.from('Author\0Jane Roe, GPS 45.1N 7.6E')),
  chunk('IDAT', Buffer.from('789c626001000000ffff0300', 'hex')),
  chunk('IEND', Buffer.alloc(0)),
])
function chunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  return Buffer.concat([len, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)])
}
function jpegWithExif() {
  const seg = (marker: number, body: Buffer) =>
    Buffer.concat([
      Buffer.from([0xff, marker]),
      Buffer.from([(body.length + 2) >> 8, (body.length + 2) & 0xff]),
      body,
    ])
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    seg(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    seg(0xe1, Buffer.from('Exif\0\0GPSLatitude=45.07;GPSLongitude=7.68', 'latin1')),
    seg(0xfe, Buffer.from('shot on site by J. Roe', 'latin1')),
    seg(0xdb, Buffer.alloc(65, 1)),
    // Start of frame: 8-bit samples, 1 × 1 pixels, one component.
    seg(0xc0, Buffer.from([8, 0, 1, 0, 1, 1, 1, 0x11, 0])),
    seg(0xda, Buffer.from([0, 1, 2, 3])),
    Buffer.from('scan-data-\xff\x00-more', 'latin1'),
    Buffer.from([0xff, 0xd9]),
  ])
}
function tiffWithGps() {
  // Little-endian TIFF: IFD0 at 8 with 2 entries (ImageWidth, GPSInfo→IFD at 38), GPS IFD with a RATIONAL[3] latitude at 56.
  const b = Buffer.alloc(80)
  b.write('II*\0', 0, 'latin1')
  b.writeUInt32LE(8, 4)
  b.writeUInt16LE(2, 8)
  b.writeUInt16LE(0x0100, 10)
  b.writeUInt16LE(3, 12)
  b.writeUInt32LE(1, 14)
  b.writeUInt32LE(1, 18)
  b.writeUInt16LE(0x8825, 22)
  b.writeUInt16LE(4, 24)
  b.writeUInt32LE(1, 26)
  b.writeUInt32LE(38, 30)
  b.writeUInt32LE(0, 34)
  b.writeUInt16LE(1, 38)
  b.writeUInt16LE(2, 40)
  b.writeUInt16LE(5, 42)
  b.writeUInt32LE(3, 44)
  b.writeUInt32LE(56, 48)
  b.writeUInt32LE(0, 52)
  for (let i = 0; i < 6; i++) b.writeUInt32LE(45 + i, 56 + i * 4)
  return b
}

function multipart(
  field: string,
  fileName: string,
  bytes: Buffer | ReadableStream<Uint8Array>,
  withLength = true,
) {
  const boundary = '----workneer-test'
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` }
  if (Buffer.isBuffer(bytes)) {
    const body = Buffer.concat([head, bytes, tail])
    if (withLength) headers['content-length'] = String(body.length)
    return new Request('http://test/upload', { method: 'POST', headers, body })
  }
  const reader = bytes.getReader()
  let stage = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === 0) return ((stage = 1), controller.enqueue(head))
      const { done, value } = await reader.read()
      if (!done) return controller.enqueue(value)
      if (stage === 1) return ((stage = 2), controller.enqueue(tail))
      controller.close()
    },
    cancel: (reason) => reader.cancel(reason),
  })
  return new Request('http://test/upload', { method: 'POST', headers, body, duplex: 'half' } as RequestInit)
}

describe('upload rules (docs/product.md §5)', () => {
  it('accepts the listed image and spreadsheet extensions and nothing else', () => {
    for (const name of ['a.png', 'b.JPG', 'c.jpeg', 'd.gif', 'e.tiff', 'f.bpg'])
      expect(checkUpload('image', name, 10)).toBeNull()
    expect(checkUpload('image', 'plan.pdf', 10)).toMatchObject({
      title: 'Invalid Image',
      message: 'Please select a valid image',
    })
    expect(checkUpload('spreadsheet', 'boq.xls', 10)).toMatchObject({
      title: 'Invalid Excel',
      message: 'Please select a valid Excel sheet',
    })
    expect(checkUpload('spreadsheet', 'boq.csv', 10)).toBeNull()
  })
  it('limits size to 800 KB by default, naming the limit', () => {
    expect(checkUpload('image', 'a.png', 800 * 1024)).toBeNull()
    expect(checkUpload('image', 'a.png', 800 * 1024 + 1)).toMatchObject({
      title: 'File Size',
      message: 'Image size should not exceed 800 KB',
    })
    expect(checkUpload('image', 'a.png', 300 * 1024, 200)?.message).toBe(
      'Image size should not exceed 200 KB',
    )
  })
  it('falls back to image for unknown attachment types', () => {
    expect([1, 2, 3, 4, 0, 9, 'x', null].map(attachmentTypeOf)).toEqual([1, 2, 3, 4, 1, 1, 1, 1])
  })
})

describe('metadata stripping', () => {
  it('drops EXIF, comments and text chunks but keeps the image data', () => {
    const jpg = stripMetadata('jpg', jpegWithExif())
    expect(jpg.toString('latin1')).not.toMatch(/GPS|Exif|J\. Roe/)
    expect(jpg.toString('latin1')).toMatch(/JFIF/)
    expect(jpg.subarray(-19).toString('latin1')).toBe('scan-data-\xff\x00-more\xff\xd9')
    const cleanPng = stripMetadata('png', png)
    expect(cleanPng.toString('latin1')).not.toMatch(/GPS|Jane/)
    expect(cleanPng.toString('latin1')).toMatch(/IHDR[\s\S]*IDAT[\s\S]*IEND/)
  })
  it('blanks and unlinks the GPS directory of a TIFF', () => {
    const original = tiffWithGps()
    const tif = stripMetadata('tif', original)
    expect(tif.readUInt16LE(8)).toBe(1)
    expect(tif.readUInt16LE(10)).toBe(0x0100)
    expect(tif.readUInt32LE(22)).toBe(0) // next-IFD offset moved up, no GPS entry left
    expect(tif.subarray(38).every((byte) => byte === 0)).toBe(true)
    expect(original.readUInt32LE(56)).toBe(45) // the input is not modified
  })
})

describe.each(portableDialects)('file service on %s', (dialect) => {
  const s = useTestDatabase(dialect)
  let files: FileService
  let root: string
  let owner: number
  let other: number
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-files-'))
    files = createFileService({ db: s.database.db, storage: createFolderStorage(root) })
    const now = new Date().toISOString()
    const user = (email: string) =>
      s.database.db
        .insertInto('app_user')
        .values({
          email,
          first_name: 'Ada',
          last_name: 'Roe',
          account_type: 'client',
          status: 'active',
          created_at: now,
          updated_at: now,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    owner = (await user(`owner-${dialect}@example.com`)).id
    other = (await user(`other-${dialect}@example.com`)).id
  })
  const caller = (userId: number) => ({ userId, sessionId: 's', roles: [2] })
  const tmpFiles = () => fs.readdirSync(path.join(root, 'tmp'))

  it('stores a checked image without its metadata and serves it with type, length and caching', async () => {
    const stored = await files.receive(multipart('file', 'site photo.jpg', jpegWithExif()), {
      kind: 'image',
      purpose: 'profile-image',
      ownerId: owner,
    })
    expect(stored).toMatchObject({
      mime: 'image/jpeg',
      type: 'jpg',
      attachmentType: 1,
      originalName: 'site photo.jpg',
    })
    const response = await files.download(stored.id, null, new Request('http://test/'))
    expect(response.headers.get('content-type')).toBe('image/jpeg')
    expect(Number(response.headers.get('content-length'))).toBe(stored.size)
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400')
    expect(response.headers.get('content-disposition')).toBe(
      `inline; filename="site photo.jpg"; filename*=UTF-8''site%20photo.jpg`,
    )
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(bytes.length).toBe(stored.size)
    expect(bytes.toString('latin1')).not.toMatch(/GPS/)
    const again = await files.download(
      stored.id,
      null,
      new Request('http://test/', { headers: { 'if-none-match': `"${stored.sha256}"` } }),
    )
    expect(again.status).toBe(304)
    expect(tmpFiles()).toEqual([])
  })

  it('refuses a picture whose header claims more pixels than any screen shows, storing nothing', async () => {
    const ihdr = (width: number, height: number) => {
      const data = Buffer.from('0000000000000000080600000000', 'hex').subarray(0, 13)
      data.writeUInt32BE(width, 0)
      data.writeUInt32BE(height, 4)
      return data
    }
    const pngOf = (width: number, height: number) =>
      Buffer.concat([png.subarray(0, 8), chunk('IHDR', ihdr(width, height)), png.subarray(8 + 25)])
    const upload = (bytes: Buffer) =>
      files.receive(multipart('file', 'avatar.png', bytes), {
        kind: 'image',
        purpose: 'profile-image',
        ownerId: owner,
      })
    const count = async () =>
      Number(
        (
          await s.database.db
            .selectFrom('stored_file')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const before = await count()
    for (const [width, height] of [
      [60_000, 60_000],
      [10_001, 10],
      [8_000, 6_000],
    ])
      await expect(upload(pngOf(width, height)), `${width} × ${height}`).rejects.toMatchObject({
        status: 400,
        title: 'Invalid Image',
        errors: { file: [expect.stringMatching(/^The image is too large: at most 10,000 pixels/)] },
      })
    expect(await count()).toBe(before)
    expect(await upload(pngOf(4_000, 3_000))).toMatchObject({ type: 'png' })
    expect(tmpFiles()).toEqual([])
  })

  it('refuses a renamed executable and a binary csv, storing nothing', async () => {
    const before = await s.database.db
      .selectFrom('stored_file')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    const exe = Buffer.concat([
      Buffer.from('MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff', 'latin1'),
      Buffer.alloc(200, 7),
    ])
    await expect(
      files.receive(multipart('file', 'photo.png', exe), {
        kind: 'image',
        purpose: 'profile-image',
        ownerId: owner,
      }),
    ).rejects.toMatchObject({
      status: 400,
      title: 'Invalid Image',
      errors: { file: ['Please select a valid image'] },
    })
    await expect(
      files.receive(multipart('file', 'boq.csv', exe), {
        kind: 'spreadsheet',
        purpose: 'project',
        ownerId: owner,
      }),
    ).rejects.toMatchObject({ title: 'Invalid Excel' })
    await expect(
      files.receive(multipart('file', 'boq.exe', exe), {
        kind: 'spreadsheet',
        purpose: 'project',
        ownerId: owner,
      }),
    ).rejects.toMatchObject({ title: 'Invalid Excel' })
    const after = await s.database.db
      .selectFrom('stored_file')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
    expect(tmpFiles()).toEqual([])
  })

  it('cuts off an endless upload at the limit without reading it whole', async () => {
    let pulled = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024
        if (pulled > 2 * 1024 ** 3) return controller.close()
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x41))
      },
    })
    const started = Date.now()
    await expect(
      files.receive(multipart('file', 'huge.png', endless, false), {
        kind: 'image',
        purpose: 'profile-image',
        ownerId: owner,
      }),
    ).rejects.toMatchObject({
      status: 400,
      title: 'File Size',
      message: 'Image size should not exceed 800 KB',
      headers: { connection: 'close' },
    })
    expect(pulled).toBeLessThan(4 * 1024 * 1024)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(tmpFiles()).toEqual([])
    await expect(
      files.receive(multipart('file', 'big.png', Buffer.alloc(2 * 1024 * 1024)), {
        kind: 'image',
        purpose: 'profile-image',
        ownerId: owner,
      }),
    ).rejects.toMatchObject({ title: 'File Size' })
  })

  it('lets only the owner read a private file, and tells strangers nothing', async () => {
    const csv = await files.receive(
      multipart('file', 'quantities.csv', Buffer.from('item;qty\nconcrete C30/37;120 m³\n')),
      { kind: 'spreadsheet', purpose: 'project', ownerId: owner },
    )
    expect(csv).toMatchObject({ type: 'csv', attachmentType: 4 })
    const own = await files.download(csv.id, caller(owner), new Request('http://test/'))
    expect(own.headers.get('content-disposition')).toMatch(/^attachment;/)
    expect(own.headers.get('cache-control')).toBe('private, max-age=300')
    expect(await own.text()).toContain('concrete')
    await expect(files.download(csv.id, caller(other), new Request('http://test/'))).rejects.toMatchObject({
      status: 404,
    })
    await expect(files.download(csv.id, null, new Request('http://test/'))).rejects.toMatchObject({
      status: 401,
    })
    await expect(files.download(999999, caller(owner), new Request('http://test/'))).rejects.toMatchObject({
      status: 404,
    })
    files.setReadPolicy('project', (_file, c) => c?.userId === other)
    expect((await files.download(csv.id, caller(other), new Request('http://test/'))).status).toBe(200)
  })

  it('asks for a multipart body and a file, naming the field', async () => {
    await expect(
      files.receive(
        new Request('http://test/', {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        }),
        { kind: 'image', purpose: 'x', ownerId: owner },
      ),
    ).rejects.toMatchObject({ status: 400, errors: { file: ['Send the file as multipart/form-data'] } })
    await expect(
      files.receive(multipart('other', 'a.png', png), { kind: 'image', purpose: 'x', ownerId: owner }),
    ).rejects.toMatchObject({ status: 400, errors: { file: ['Choose a file to upload'] } })
  })
})
