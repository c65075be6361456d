import type { Selectable } from 'kysely'
import type { StoredFileTable } from '#server/db/schema.ts'

// A stored file as modules see it: its row, in camel case.
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

export function toStoredFile(r: Selectable<StoredFileTable>): StoredFile {
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
