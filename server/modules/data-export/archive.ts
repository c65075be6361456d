import fs from 'node:fs'
import type { Readable } from 'node:stream'
import { stringify } from 'csv-stringify/sync'
import { Zip, ZipDeflate, ZipPassThrough, strToU8 } from 'fflate'
import type { Section } from './collect.ts'

// The export's ZIP (decision 331): each section as JSON (the exact values) and as CSV (for a
// spreadsheet: a header of every column, RFC 4180 quoting, a text cell a spreadsheet would run as a
// formula starts with an apostrophe), and the person's own files under files/. Written as a stream
// to a file, so a person with many files never sits whole in memory.

export interface ArchiveFile {
  id: number
  original_name: string
  read: () => Readable
}

const formula = /^[=+\-@\t\r]/

function csvOf(rows: Section['rows']) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))]
  const cell = (v: unknown) => {
    if (v == null) return ''
    const text = typeof v === 'object' ? JSON.stringify(v) : String(v)
    return typeof v === 'string' && formula.test(text) ? `'${text}` : text
  }
  return `\uFEFF${stringify([columns, ...rows.map((r) => columns.map((c) => cell(r[c])))], { record_delimiter: '\r\n' })}`
}

/** A name safe in any unzip tool: no folders, no control characters, at most 120 characters. */
export const safeName = (name: string) =>
  name
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x1f\x7f/\\:*?"<>|]/g, '_')
    .replace(/^\.+/, '_')
    .slice(-120) || 'file'

/** Writes the archive to `target`; resolves once the file is whole. */
export async function writeArchive(
  target: string,
  manifest: Record<string, unknown>,
  sections: Section[],
  files: ArchiveFile[],
) {
  const out = fs.createWriteStream(target)
  const zip = new Zip()
  const written = new Promise<void>((resolve, reject) => {
    out.on('error', reject)
    zip.ondata = (error, chunk, final) => {
      if (error) return reject(error)
      out.write(chunk)
      if (final) out.end(() => resolve())
    }
  })
  const text = (name: string, body: string) => {
    const entry = new ZipDeflate(name, { level: 6 })
    zip.add(entry)
    entry.push(strToU8(body), true)
  }
  try {
    for (const s of sections) {
      text(`json/${s.name}.json`, JSON.stringify(s.rows, null, 2))
      text(`csv/${s.name}.csv`, csvOf(s.rows))
    }
    const missing: number[] = []
    for (const f of files) if (!(await addFile(zip, f))) missing.push(f.id)
    text('manifest.json', JSON.stringify({ ...manifest, missingFiles: missing }, null, 2))
    zip.end()
  } catch (error) {
    zip.terminate()
    out.destroy()
    throw error
  }
  await written
}

/** Adds one file's bytes; a file whose bytes are gone from storage is left out (false). */
async function addFile(zip: Zip, f: ArchiveFile) {
  const chunks = f.read()[Symbol.asyncIterator]()
  let next: IteratorResult<Uint8Array>
  try {
    next = await chunks.next()
  } catch {
    return false
  }
  const entry = new ZipPassThrough(`files/${f.id}-${safeName(f.original_name)}`)
  zip.add(entry)
  for (; !next.done; next = await chunks.next()) entry.push(next.value)
  entry.push(new Uint8Array(0), true)
  return true
}
