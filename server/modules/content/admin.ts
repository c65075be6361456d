import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import type { FileService } from '../files/service.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import type { ContentInput, ContentKind } from './admin-contract.ts'
import { findRow, ordered, toItem, type Row } from './admin-items.ts'
import { createItem, moveItem, publishBlog, removeItem, updateItem } from './admin-writes.ts'

// The admin area's side of the public site's content (decisions 240–242), bound to the database
// and the file service that keeps uploaded images.

/** The purpose of uploaded content images: readable by anyone, like the pages that show them. */
export const CONTENT_IMAGE = 'content-image'
const imagePath = (id: number) => `/api/v1/files/${id}/download`

/** Lets anyone read content images, and tells the file sweep which a blog post or a logo still shows. */
function registerContentImages(files: FileService) {
  files.setReadPolicy(CONTENT_IMAGE, () => true)
  files.setReferences(CONTENT_IMAGE, async (executor, ids) => {
    const urls = ids.map(imagePath)
    const used = [
      ...(await executor
        .selectFrom('blog_post')
        .select('image_url as url')
        .where('image_url', 'in', urls)
        .execute()),
      ...(await executor
        .selectFrom('partner_logo')
        .select('image_url as url')
        .where('image_url', 'in', urls)
        .execute()),
    ]
    const shown = new Set(used.map((r) => r.url))
    return ids.filter((id) => shown.has(imagePath(id)))
  })
}

async function uploadImage(
  deps: { db: Kysely<Database>; files: FileService },
  caller: Caller,
  request: Request,
) {
  const stored = await deps.files.receive(request, {
    kind: 'image',
    purpose: CONTENT_IMAGE,
    ownerId: caller.userId,
  })
  await recordAdminAction(deps.db, {
    actorId: caller.userId,
    action: 'content.image-upload',
    objectType: 'stored_file',
    objectId: stored.id,
  })
  return { id: stored.id, url: imagePath(stored.id) }
}

export function createContentAdmin({ db, files }: { db: Kysely<Database>; files: FileService }) {
  registerContentImages(files)
  return {
    async list<K extends ContentKind>(kind: K) {
      const rows = (await ordered(db, kind).execute()) as Row[]
      return { data: rows.map((r) => toItem(kind, r)) }
    },
    get: async <K extends ContentKind>(kind: K, id: number) => toItem(kind, await findRow(db, kind, id)),
    create: <K extends ContentKind>(caller: Caller, kind: K, input: ContentInput<K>) =>
      createItem(db, caller, kind, input),
    update: <K extends ContentKind>(caller: Caller, kind: K, id: number, input: ContentInput<K>) =>
      updateItem(db, caller, { kind, id, input }),
    remove: (caller: Caller, kind: ContentKind, id: number) => removeItem(db, caller, kind, id),
    move: <K extends ContentKind>(caller: Caller, kind: K, id: number, direction: 'up' | 'down') =>
      moveItem(db, caller, { kind, id, direction }),
    publish: (caller: Caller, id: number, published: boolean) => publishBlog(db, caller, id, published),
    uploadImage: (caller: Caller, request: Request) => uploadImage({ db, files }, caller, request),
  }
}

export type ContentAdmin = ReturnType<typeof createContentAdmin>
