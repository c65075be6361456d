import fs from 'node:fs'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { pipeline } from 'node:stream/promises'
import type { Readable } from 'node:stream'

// Where file bytes live. A folder under data/ by default; an S3-compatible store can implement the
// same calls.
export interface FileStorage {
  /** A place to write an upload while it is checked; it is moved into place or removed. */
  temporary(): { path: string; remove(): Promise<void> }
  /** Moves a checked temporary file into storage under a new key and returns the key. */
  keep(temporaryPath: string): Promise<string>
  read(key: string): Readable
  /** Removes the bytes of a key; a key already gone is not an error. */
  remove(key: string): Promise<void>
  /** Every stored key with when it was written (the sweep of bytes without a row reads it). */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>
}

export function createFolderStorage(root: string): FileStorage {
  const tmp = path.join(root, 'tmp')
  fs.mkdirSync(tmp, { recursive: true })
  const resolve = (key: string) => {
    const full = path.resolve(root, key)
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error('file key outside storage')
    return full
  }
  return {
    temporary() {
      const p = path.join(tmp, randomUUID())
      return { path: p, remove: () => fs.promises.rm(p, { force: true }) }
    },
    async keep(temporaryPath) {
      const now = new Date()
      const key = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}`
      const full = resolve(key)
      await fs.promises.mkdir(path.dirname(full), { recursive: true })
      await fs.promises.rename(temporaryPath, full)
      return key
    },
    read: (key) => fs.createReadStream(resolve(key)),
    remove: (key) => fs.promises.rm(resolve(key), { force: true }),
    async *list() {
      // Keys are year/month/uuid; the temporary folder is not storage.
      for (const entry of await fs.promises.readdir(root, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue
        const key = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')
        if (key.startsWith('tmp/')) continue
        const stat = await fs.promises.stat(path.join(entry.parentPath, entry.name)).catch(() => null)
        if (stat) yield { key, modifiedAt: stat.mtime }
      }
    },
  }
}

export async function writeStream(source: Readable, file: string) {
  await pipeline(source, fs.createWriteStream(file))
}
