import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError } from '#server/api/errors.ts'
import type { FileStorage } from './storage.ts'
import { DEFAULT_MAX_FILE_KB, type UploadKind } from './rules.ts'
import { releaseFiles } from './lifecycle.ts'
import { canRead, downloadResponse, type ReadPolicy } from './download.ts'
import { receiveForm, type FormOptions } from './receive-form.ts'
import { toStoredFile, type StoredFile } from './stored-file.ts'
import { releaseUnreferenced, type References } from './unreferenced.ts'

export type { ReadPolicy } from './download.ts'
export type { References } from './unreferenced.ts'
export type { StoredFile } from './stored-file.ts'

// The file service, bound to a database and a storage: uploads, downloads, and the rules each
// module registers for the files it attaches (who may read them, which are still pointed at).
export function createFileService({ db, storage }: { db: DB; storage: FileStorage }) {
  const policies = new Map<string, ReadPolicy>([
    ['profile-image', () => true],
    ['portfolio', () => true],
  ])
  const references = new Map<string, References>()

  async function find(id: number) {
    const row = await db.selectFrom('stored_file').selectAll().where('id', '=', id).executeTakeFirst()
    return row ? toStoredFile(row) : null
  }

  /** Reads and stores the one file of a multipart request, checked as `receiveForm` checks each. */
  async function receive(
    request: Request,
    options: { kind: UploadKind; purpose: string; ownerId: number | null; limitKb?: number; field?: string },
  ): Promise<StoredFile> {
    const field = options.field ?? 'file'
    const form = await receiveForm(storage, request, {
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

  return {
    receive,
    /** Reads a multipart form with several files (receive-form.ts); the caller stores them in its transaction. */
    receiveForm: (request: Request, options: FormOptions) => receiveForm(storage, request, options),
    find,
    canRead: (file: StoredFile, caller: Caller | null) => canRead(policies, file, caller),
    /** The download of docs/product.md §7 (`files/{id}/download`) as an HTTP response, with caching and disposition. */
    download: async (id: number, caller: Caller | null, request: Request) =>
      downloadResponse({ storage, policies }, await find(id), caller, request),
    /** Lets a module say who may read the files it attaches (e.g. a project's participants). */
    setReadPolicy: (purpose: string, policy: ReadPolicy) => void policies.set(purpose, policy),
    /** Lets a module say which of its files are still pointed at, so the sweep may release the others. */
    setReferences: (purpose: string, find: References) => void references.set(purpose, find),
    releaseUnreferenced: (options?: { olderThanMs?: number; now?: number }) =>
      releaseUnreferenced(db, references, options),
    downloadUrl: (id: number) => `files/${id}/download`,
    /** Deletes file rows in the caller's transaction; their bytes go once it commits (lifecycle.ts). */
    release: releaseFiles,
    storage,
  }
}

export type FileService = ReturnType<typeof createFileService>
